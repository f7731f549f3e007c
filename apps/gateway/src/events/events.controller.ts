import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiExtension,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import {
  type AggregateBucket,
  AggregateBuckets,
  type AggregateEventsRequest,
  type AggregateEventsResponse,
  type AggregateGroupField,
  type AggregateMetric,
  type EventResponse,
  type IngestRequest,
  type IngestResponse,
  IngestLimits,
  type ListEventsRequest,
  type ListEventsResponse,
  RpcPatterns,
  type SearchEventsRequest,
  type SearchEventsResponse,
  ProducerEventTypes,
} from '@vigil/contracts';
import { AcceptsAnyText, DomainException } from '@vigil/platform';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { RpcClients } from '../rpc/rpc-clients';
import { AggregateEventsDto, type BodyFiltersDto, ListEventsQueryDto, SearchEventsDto, StreamQueryDto } from './dto/events.dto';
import { AggregateResponseDto, EventDetailDto, IngestResponseDto, ListEventsResponseDto, SearchResponseDto } from './dto/event-responses.dto';
import { resolveTimeRange, toEventFilters } from './event-filters';
import { EventStreamService } from './stream/event-stream.service';

/** Audit records are stored whatever their strings hold (docs/events.md#records-with-nul-characters). */
@AcceptsAnyText()
export class IngestEventsDto {
  @ApiProperty({ type: 'array', items: { type: 'object' }, minItems: 1, maxItems: IngestLimits.maxRecords, description: 'Audit records, stored all or nothing: one invalid record refuses the whole request.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(IngestLimits.maxRecords)
  @IsObject({ each: true })
  events!: Record<string, unknown>[];
}

const DAY_MS = 86_400_000;

function bodyFilters(filters: BodyFiltersDto | undefined) {
  const range = resolveTimeRange(filters?.time_range, 'filters.time_range', DAY_MS);
  return {
    ...toEventFilters(filters ?? {}, 'filters.'),
    operations: filters?.operation?.in,
    query_contains: filters?.query?.contains,
    start: range.start,
    end: range.end,
  };
}

@ApiTags('events')
@ApiBearerAuth()
@Controller('v1/events')
export class EventsController {
  constructor(
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(EventStreamService) private readonly streams: EventStreamService,
  ) {}

  /** Records are checked by event-ingest, which stores all of them in one transaction or none. */
  @Post('ingest')
  @HttpCode(202)
  @RequireScope('write:events')
  @ApiExtension('x-required-scope', 'write:events')
  @ApiOperation({
    summary: 'Ingest audit records (at most 1000 and 1 MiB); all or nothing',
    description:
      'Records are stored whatever their strings hold: a record holding U+0000 or a lone surrogate is stored escaped ' +
      '(`\\` -> `\\\\`, U+0000 -> `\\0`, lone surrogate -> `\\uXXXX`) and read back as sent by the events API and the stream. ' +
      `Producers may send these types: ${ProducerEventTypes.join(', ')}. The types only Vigil produces (policy.violation, policy.match, ` +
      'vigil.* and audit.checkpoint) are refused: 400 with errors[].field `events[i].type`, and nothing of the request is stored. ' +
      'Each stored event records the credential that sent it as `ingested_by` ({kind: user | api_key | oauth_client, id}).',
  })
  @ApiResponse({ status: 202, type: IngestResponseDto })
  @ApiBadRequestResponse({ description: 'A record is invalid or of a type reserved to Vigil; errors[].field names it (events[3].type). Nothing was stored.' })
  @ApiResponse({
    status: 503,
    description:
      'Nothing was stored; retry after Retry-After (the records\' `id`s make a retry safe). Code `enforcement_not_ready`: event-ingest has not loaded the ' +
      'policies yet (after a start, while the policy service does not answer), and no record is stored without being evaluated against them. ' +
      'Otherwise a service behind the gateway is unavailable (`service_unavailable`).',
  })
  ingest(@Body() body: IngestEventsDto): Promise<IngestResponse> {
    return this.rpc.events.call<IngestRequest, IngestResponse>(RpcPatterns.events.ingest, {
      records: body.events as IngestRequest['records'],
    });
  }

  @Get()
  @RequireScope('read:logs')
  @ApiExtension('x-required-scope', 'read:logs')
  @ApiOperation({
    summary: 'List events, newest first',
    description:
      'Every filter combines with AND. `type` takes patterns (`security.*`). `page` reaches (page-1)*limit <= 10000; ' +
      'pass `pagination.next_cursor` as `cursor` for any depth, and `pagination.snapshot` as `snapshot` for pages that ignore newer events.',
  })
  @ApiOkResponse({ type: ListEventsResponseDto })
  @ApiBadRequestResponse({ description: 'A filter is invalid or out of range (limit > 1000, page too deep, unknown type).' })
  async list(@Query() query: ListEventsQueryDto): Promise<ListEventsResponse> {
    if (query.start_date && query.end_date && !(new Date(query.start_date) < new Date(query.end_date))) {
      throw DomainException.validation([{ field: 'start_date', message: 'must be before end_date' }]);
    }
    const filters = toEventFilters(query);
    if (query.start_date) filters.start = new Date(query.start_date).toISOString();
    if (query.end_date) filters.end = new Date(query.end_date).toISOString();
    if (query.user !== undefined) filters.users = [query.user];
    if (query.source_ip !== undefined) filters.source_ips = [query.source_ip];
    return this.rpc.events.call<ListEventsRequest, ListEventsResponse>(RpcPatterns.events.list, {
      filters,
      page: query.page ?? 1,
      limit: query.limit ?? 50,
      cursor: query.cursor,
      snapshot: query.snapshot,
    });
  }

  @Get('stream')
  @RequireScope('read:logs')
  @ApiExtension('x-required-scope', 'read:logs')
  @ApiOperation({
    summary: 'Stream events live (Server-Sent Events)',
    description:
      'Each message: `id: <event_id>`, `event: <type>`, `data: <event JSON>`; a comment heartbeat every 15 s. ' +
      'Last-Event-ID replays the stored events after that id, in order, then continues live with no gap and no duplicate. ' +
      'At most 10 open streams per credential. A client leaving more than STREAM_BUFFER_BYTES unread gets a final ' +
      '`event: error` message (code slow_consumer) and is disconnected; it resumes with Last-Event-ID. ' +
      'A stream lives no longer than its credential: when the access token or API key expires, or within a second of the key, ' +
      'session or user being revoked, disabled or deleted, a final `event: stream.closed` message with `{reason, detail}` ' +
      '(e.g. `token_expired`, `api_key_revoked`, `user_disabled`) ends it.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id.' })
  @ApiOkResponse({ description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiBadRequestResponse({ description: 'Invalid filter, or a Last-Event-ID that is not a stored event.' })
  @ApiTooManyRequestsResponse({ description: 'The credential already has 10 open streams (Retry-After).' })
  async stream(
    @Query() query: StreamQueryDto,
    @Headers('last-event-id') lastEventIdHeader: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const lastEventId = lastEventIdHeader?.trim() || query.last_event_id;
    if (lastEventId !== undefined && !/^evt_[0-9a-z]{1,40}$/.test(lastEventId)) {
      throw DomainException.validation([{ field: 'Last-Event-ID', message: 'must be an event id' }]);
    }
    const principal = (req as Request & { user: Principal }).user;
    const begin = await this.streams.open(principal, toEventFilters(query), lastEventId);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    const session = begin({
      write: (chunk) => res.write(chunk),
      onDrain: (listener) => res.on('drain', listener),
      end: (chunk) => res.end(chunk),
      destroy: () => res.destroy(),
    });
    res.on('close', () => session.closed());
  }

  @Post('aggregate')
  @HttpCode(200)
  @RequireScope('read:logs')
  @ApiExtension('x-required-scope', 'read:logs')
  @ApiOperation({
    summary: 'Aggregate events',
    description:
      'Metrics (`count`, `unique_users`, `unique_source_ips`, `max_risk_score`, `avg_risk_score`) over the events matching `filters` ' +
      '(default time range: the last 24 h), grouped by fields and optionally a UTC time bucket (`minute`, `hour`, `day`).',
  })
  @ApiOkResponse({ type: AggregateResponseDto })
  @ApiBadRequestResponse({ description: 'Invalid metric, group, filter or time range (errors[].field).' })
  aggregate(@Body() body: AggregateEventsDto): Promise<AggregateEventsResponse> {
    const groupBy = body.group_by ?? [];
    const buckets = groupBy.filter((g) => (AggregateBuckets as readonly string[]).includes(g));
    if (buckets.length > 1) throw DomainException.validation([{ field: 'group_by', message: 'may hold at most one time bucket (minute, hour or day)' }]);
    return this.rpc.events.call<AggregateEventsRequest, AggregateEventsResponse>(RpcPatterns.events.aggregate, {
      filters: bodyFilters(body.filters),
      metrics: body.metrics as AggregateMetric[],
      group_by: groupBy.filter((g) => !buckets.includes(g)) as AggregateGroupField[],
      bucket: buckets[0] as AggregateBucket | undefined,
      limit: body.limit ?? 1000,
    });
  }

  @Post('search')
  @HttpCode(200)
  @RequireScope('read:logs')
  @ApiExtension('x-required-scope', 'read:logs')
  @ApiOperation({
    summary: 'Search events',
    description:
      'The list filters plus `operation: {in: [...]}` (first SQL keyword of the query) and `query: {contains: "..."}` ' +
      '(case-insensitive text match), over `time_range` (default: the last 24 h); newest first, paged by cursor.',
  })
  @ApiOkResponse({ type: SearchResponseDto })
  @ApiBadRequestResponse({ description: 'Invalid filter or time range (errors[].field).' })
  search(@Body() body: SearchEventsDto): Promise<SearchEventsResponse> {
    return this.rpc.events.call<SearchEventsRequest, SearchEventsResponse>(RpcPatterns.events.search, {
      filters: bodyFilters(body.filters),
      limit: body.limit ?? 50,
      cursor: body.cursor,
    });
  }

  @Get(':event_id')
  @RequireScope('read:logs')
  @ApiExtension('x-required-scope', 'read:logs')
  @ApiOperation({ summary: 'Get one event with its context and related events' })
  @ApiParam({ name: 'event_id', example: 'evt_01jd6w8k2m3n4p5q6r7s8t9v0w' })
  @ApiOkResponse({ type: EventDetailDto })
  @ApiNotFoundResponse({ description: 'No event with that id (code event_not_found).' })
  get(@Param('event_id') id: string): Promise<EventResponse> {
    return this.rpc.events.call(RpcPatterns.events.get, { id });
  }
}
