import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { type EventResponse, type IngestRequest, type IngestResponse, IngestLimits, RpcPatterns } from '@vigil/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject } from 'class-validator';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';

export class IngestEventsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(IngestLimits.maxRecords)
  @IsObject({ each: true })
  events!: Record<string, unknown>[];
}

@Controller('v1/events')
export class EventsController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  /** Records are checked by event-ingest, which stores all of them in one transaction or none. */
  @Post('ingest')
  @HttpCode(202)
  @RequireScope('write:events')
  ingest(@Body() body: IngestEventsDto): Promise<IngestResponse> {
    return this.rpc.events.call<IngestRequest, IngestResponse>(RpcPatterns.events.ingest, {
      records: body.events as IngestRequest['records'],
    });
  }

  @Get(':event_id')
  @RequireScope('read:logs')
  get(@Param('event_id') id: string): Promise<EventResponse> {
    return this.rpc.events.call(RpcPatterns.events.get, { id });
  }
}
