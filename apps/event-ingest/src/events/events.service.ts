import { Inject, Injectable } from '@nestjs/common';
import type {
  AggregateEventsRequest,
  AggregateEventsResponse,
  EventPositionResponse,
  EventResponse,
  ListEventsRequest,
  ListEventsResponse,
  ReplayEventsRequest,
  ReplayEventsResponse,
  SearchEventsRequest,
  SearchEventsResponse,
} from '@vigil/contracts';
import { restoreStoredEvent } from '@vigil/contracts';
import { DomainException } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { DatabasesRepository } from '../databases/databases.repository';
import { decodeCursor, encodeCursor } from './event-query';
import { EventsRepository } from './events.repository';

export enum EventsErrorCode {
  EventNotFound = 'event_not_found',
  InvalidCursor = 'invalid_cursor',
  PageTooDeep = 'page_too_deep',
}

/** Deepest OFFSET a page number may reach; beyond it, `cursor` pages at constant cost. */
export const MAX_LIST_OFFSET = 10_000;
/** `total` is exact up to this many matches, then the planner's estimate (total_estimated). */
export const EXACT_COUNT_UP_TO = 1000;
const RELATED_LIMIT = 20;

/** Reads of stored audit events: the list, one event, aggregates, search and the stream's replay. */
@Injectable()
export class EventsService {
  constructor(
    @Inject(EventsRepository) private readonly events: EventsRepository,
    @Inject(DatabasesRepository) private readonly databases: DatabasesRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  /** Registry names of databases (registered, or discovered under their id). */
  private databaseNames(ids: string[]): Promise<Map<string, string>> {
    return this.databases.names(this.dataSource.manager, ids);
  }

  async get(id: string): Promise<EventResponse> {
    const event = await this.events.findById(id);
    if (!event) throw DomainException.notFound('event', id, EventsErrorCode.EventNotFound);
    const [session, violation, names] = await Promise.all([
      this.events.findSameSession(event, RELATED_LIMIT),
      this.events.findSameViolation(event, RELATED_LIMIT),
      this.databaseNames([event.database_id]),
    ]);
    const related = [...new Set([...session, ...violation])].slice(0, RELATED_LIMIT);
    return { ...restoreStoredEvent(event), database_name: names.get(event.database_id) ?? event.database_id, related_events: related };
  }

  async list(request: ListEventsRequest): Promise<ListEventsResponse> {
    const { limit, page } = request;
    const cursor = request.cursor ? decodeCursor(request.cursor) : undefined;
    if (cursor === null) {
      throw new DomainException(400, EventsErrorCode.InvalidCursor, 'The cursor is not one this API gave out.', [{ field: 'cursor', message: 'is not a valid cursor' }]);
    }
    const offset = cursor ? 0 : (page - 1) * limit;
    if (offset > MAX_LIST_OFFSET) {
      throw new DomainException(
        400,
        EventsErrorCode.PageTooDeep,
        `Pages deeper than ${MAX_LIST_OFFSET} events are read with pagination.next_cursor (cursor=...), or narrowed with end_date.`,
        [{ field: 'page', message: `must keep (page - 1) * limit at most ${MAX_LIST_OFFSET}; use cursor` }],
      );
    }
    const snapshot = cursor?.s ?? request.snapshot ?? (await this.events.headSequence());
    const [rows, count] = await Promise.all([
      this.events.list({ filters: request.filters, snapshot, limit: limit + 1, offset, after: cursor ?? undefined }),
      this.events.count(request.filters, snapshot, EXACT_COUNT_UP_TO),
    ]);
    const hasMore = rows.length > limit;
    const events = rows.slice(0, limit);
    const last = events[events.length - 1];
    return {
      events: events.map(restoreStoredEvent),
      pagination: {
        total: count.total,
        total_estimated: count.estimated,
        page,
        per_page: limit,
        has_more: hasMore,
        snapshot,
        next_cursor: hasMore && last ? encodeCursor({ t: last.timestamp, id: last.id, s: snapshot }) : null,
      },
    };
  }

  async search(request: SearchEventsRequest): Promise<SearchEventsResponse> {
    const cursor = request.cursor ? decodeCursor(request.cursor) : undefined;
    if (cursor === null) {
      throw new DomainException(400, EventsErrorCode.InvalidCursor, 'The cursor is not one this API gave out.', [{ field: 'cursor', message: 'is not a valid cursor' }]);
    }
    const rows = await this.events.search(request.filters, request.limit + 1, cursor ?? undefined);
    const hasMore = rows.length > request.limit;
    const events = rows.slice(0, request.limit);
    const last = events[events.length - 1];
    return {
      events: events.map(restoreStoredEvent),
      pagination: {
        per_page: request.limit,
        has_more: hasMore,
        next_cursor: hasMore && last ? encodeCursor({ t: last.timestamp, id: last.id, s: '0' }) : null,
      },
      time_range: { start: request.filters.start, end: request.filters.end },
    };
  }

  async aggregate(request: AggregateEventsRequest): Promise<AggregateEventsResponse> {
    const rows = await this.events.aggregate({
      filters: request.filters,
      groupBy: request.group_by,
      bucket: request.bucket,
      metrics: request.metrics,
      limit: request.limit,
    });
    const total = rows.find((r) => r.total);
    const groups = rows.filter((r) => !r.total);
    // database_name was grouped by id: the registry names it (an id stands for itself until then).
    const nameAt = request.group_by.flatMap((f, i) => (f === 'database_name' ? [i] : []));
    if (nameAt.length) {
      const names = await this.databaseNames([...new Set(groups.flatMap((g) => nameAt.map((i) => g.keys[i]).filter((k): k is string => !!k)))]);
      for (const g of groups) for (const i of nameAt) if (g.keys[i]) g.keys[i] = names.get(g.keys[i]!) ?? g.keys[i]!;
    }
    const truncated = groups.length > request.limit;
    const numeric = (metrics: Record<string, number | string | null>) =>
      Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, v === null ? 0 : Number(v)]));
    const fields = [...request.group_by];
    return {
      time_range: { start: request.filters.start, end: request.filters.end },
      metrics: request.metrics,
      group_by: request.bucket ? [...fields, `bucket:${request.bucket}`] : fields,
      groups: (request.group_by.length || request.bucket ? groups.slice(0, request.limit) : []).map((g) => ({
        key: Object.fromEntries(fields.map((f, i) => [f, g.keys[i] ?? null])),
        ...(request.bucket ? { bucket: g.bucket ? new Date(g.bucket).toISOString() : undefined } : {}),
        ...numeric(g.metrics),
      })),
      totals: total ? numeric(total.metrics) : Object.fromEntries(request.metrics.map((m) => [m, 0])),
      truncated,
    };
  }

  async replay(request: ReplayEventsRequest): Promise<ReplayEventsResponse> {
    const limit = Math.min(Math.max(request.limit, 1), 2000);
    const events = await this.events.afterSequence({ after: request.after_seq, until: request.until_seq, filters: request.filters, limit });
    const done = events.length < limit;
    return { events, scanned_to: done ? (request.until_seq ?? events[events.length - 1]?.seq ?? request.after_seq) : events[events.length - 1]!.seq, done };
  }

  async position(id?: string): Promise<EventPositionResponse> {
    if (id === undefined) return { seq: await this.events.headSequence() };
    return { seq: await this.events.sequenceOf(id) };
  }
}
