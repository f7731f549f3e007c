import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { type EventResponse, type GetEventRequest, RpcPatterns } from '@vigil/contracts';
import { DomainException } from '@vigil/platform';
import { RpcPayload } from '@vigil/platform';
import { EventsRepository } from './events.repository';

export enum EventsErrorCode {
  EventNotFound = 'event_not_found',
}

@Controller()
export class EventsController {
  constructor(@Inject(EventsRepository) private readonly events: EventsRepository) {}

  @MessagePattern(RpcPatterns.events.get)
  async get(@RpcPayload() request: GetEventRequest): Promise<EventResponse> {
    const event = await this.events.findById(String(request?.id ?? ''));
    if (!event) throw DomainException.notFound('event', String(request?.id), EventsErrorCode.EventNotFound);
    const related = await this.events.findSameSession(event, 20);
    return { ...event, database_name: null, related_events: related };
  }
}
