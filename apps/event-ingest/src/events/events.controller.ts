import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type AggregateEventsRequest,
  type AggregateEventsResponse,
  type EventPositionRequest,
  type EventPositionResponse,
  type EventResponse,
  type GetEventRequest,
  type ListEventsRequest,
  type ListEventsResponse,
  type ReplayEventsRequest,
  type ReplayEventsResponse,
  RpcPatterns,
  type SearchEventsRequest,
  type SearchEventsResponse,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { EventsService } from './events.service';

export { EventsErrorCode } from './events.service';

/** RPC handlers for the gateway's events API; the gateway validated the shapes. */
@Controller()
export class EventsController {
  constructor(@Inject(EventsService) private readonly events: EventsService) {}

  @MessagePattern(RpcPatterns.events.get)
  get(@RpcPayload() request: GetEventRequest): Promise<EventResponse> {
    return this.events.get(String(request?.id ?? ''));
  }

  @MessagePattern(RpcPatterns.events.list)
  list(@RpcPayload() request: ListEventsRequest): Promise<ListEventsResponse> {
    return this.events.list(request);
  }

  @MessagePattern(RpcPatterns.events.search)
  search(@RpcPayload() request: SearchEventsRequest): Promise<SearchEventsResponse> {
    return this.events.search(request);
  }

  @MessagePattern(RpcPatterns.events.aggregate)
  aggregate(@RpcPayload() request: AggregateEventsRequest): Promise<AggregateEventsResponse> {
    return this.events.aggregate(request);
  }

  @MessagePattern(RpcPatterns.events.replay)
  replay(@RpcPayload() request: ReplayEventsRequest): Promise<ReplayEventsResponse> {
    return this.events.replay(request);
  }

  @MessagePattern(RpcPatterns.events.position)
  position(@RpcPayload() request: EventPositionRequest): Promise<EventPositionResponse> {
    return this.events.position(request?.id);
  }
}
