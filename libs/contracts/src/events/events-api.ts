import type { AuditEvent } from './audit-event';

/**
 * Request and response shapes of the events read API, between the gateway and event-ingest.
 * Filters are already validated and normalised by the gateway (types expanded from patterns,
 * dates as ISO strings), so event-ingest only turns them into SQL.
 */
export interface EventFilters {
  /** Exact event types (patterns such as `security.*` are expanded by the caller). */
  types?: string[];
  severities?: string[];
  database_ids?: string[];
  /** Inclusive lower bound, ISO 8601. */
  start?: string;
  /** Exclusive upper bound, ISO 8601. */
  end?: string;
  users?: string[];
  source_ips?: string[];
  /** SQL operations (first keyword of the query: SELECT, INSERT, ...). */
  operations?: string[];
  /** Case-insensitive substring of the query text. */
  query_contains?: string;
}

/** The list item of an event in the events API, with `risk_score` for triage. */
export interface EventListItem {
  id: string;
  type: string;
  severity: string;
  database_id: string;
  timestamp: string;
  details: Record<string, unknown>;
  /** Internal: `details` is in its stored, escaped form (stored-text.ts); restored before the API answers. */
  escaped?: boolean;
}

export interface ListEventsRequest {
  filters: EventFilters;
  page: number;
  limit: number;
  /** Keyset cursor from a previous answer; when set, `page` only labels the answer. */
  cursor?: string;
  /** Only events stored at or before this point (`pagination.snapshot` of page 1): stable pages. */
  snapshot?: string;
}

export interface ListEventsResponse {
  events: EventListItem[];
  pagination: {
    total: number;
    /** True when `total` is the planner's estimate (broad filters over many rows). */
    total_estimated: boolean;
    page: number;
    per_page: number;
    has_more: boolean;
    /** Pass back as `snapshot` so later pages ignore events stored after the first one. */
    snapshot: string;
    /** Pass back as `cursor` to read the next page without OFFSET (any depth, constant cost). */
    next_cursor: string | null;
  };
}

export const AggregateGroupFields = ['database_id', 'database_name', 'type', 'severity', 'user', 'source_ip', 'operation'] as const;
export type AggregateGroupField = (typeof AggregateGroupFields)[number];
export const AggregateBuckets = ['minute', 'hour', 'day'] as const;
export type AggregateBucket = (typeof AggregateBuckets)[number];
export const AggregateMetrics = ['count', 'unique_users', 'unique_source_ips', 'max_risk_score', 'avg_risk_score'] as const;
export type AggregateMetric = (typeof AggregateMetrics)[number];

export interface AggregateEventsRequest {
  filters: EventFilters & { start: string; end: string };
  metrics: AggregateMetric[];
  group_by: AggregateGroupField[];
  bucket?: AggregateBucket;
  /** Largest number of groups returned (most events first). */
  limit: number;
}

export interface AggregateEventsResponse {
  time_range: { start: string; end: string };
  metrics: AggregateMetric[];
  group_by: string[];
  groups: ({ key: Record<string, string | null>; bucket?: string } & Partial<Record<AggregateMetric, number>>)[];
  totals: Partial<Record<AggregateMetric, number>>;
  truncated: boolean;
}

export interface SearchEventsRequest {
  filters: EventFilters & { start: string; end: string };
  limit: number;
  cursor?: string;
}

export interface SearchEventsResponse {
  events: EventListItem[];
  pagination: { per_page: number; has_more: boolean; next_cursor: string | null };
  time_range: { start: string; end: string };
}

/** A stored event with its place in the global order, for the SSE stream. */
export interface SequencedEvent {
  seq: string;
  event: AuditEvent;
}

export interface ReplayEventsRequest {
  /** Events with a sequence greater than this, in sequence order. */
  after_seq: string;
  /** ... and at most this one, when set. */
  until_seq?: string;
  filters: EventFilters;
  limit: number;
}

export interface ReplayEventsResponse {
  events: SequencedEvent[];
  /** Sequence of the last row looked at (filtered or not): where the next page starts. */
  scanned_to: string;
  done: boolean;
}

export interface EventPositionRequest {
  /** An event id (Last-Event-ID); without it, the newest position. */
  id?: string;
}

export interface EventPositionResponse {
  /** The sequence of that event, or the newest committed one; null when the id is unknown. */
  seq: string | null;
}
