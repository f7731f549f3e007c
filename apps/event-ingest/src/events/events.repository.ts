import { Inject, Injectable } from '@nestjs/common';
import type { AuditEvent } from '@vigil/contracts';
import { DataSource, type EntityManager } from 'typeorm';

const COLUMNS = [
  'id', 'type', 'severity', 'database_id', '"timestamp"', 'processed_at', 'user_name', 'source_ip',
  'session_id', 'producer_id', 'policy_id', 'rule_id', 'risk_score', 'details',
];

interface EventRow {
  id: string;
  type: AuditEvent['type'];
  severity: AuditEvent['severity'];
  database_id: string;
  timestamp: Date;
  processed_at: Date;
  producer_id: string | null;
  policy_id: string | null;
  rule_id: string | null;
  risk_score: number;
  details: AuditEvent['details'];
}

function toEvent(row: EventRow): AuditEvent {
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    database_id: row.database_id,
    timestamp: row.timestamp.toISOString(),
    processed_at: row.processed_at.toISOString(),
    details: row.details,
    context: { policy_id: row.policy_id, rule_id: row.rule_id, risk_score: row.risk_score },
    producer_id: row.producer_id,
  };
}

/** Database access for stored audit events; no business rules. */
@Injectable()
export class EventsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insertMany(manager: EntityManager, events: AuditEvent[]): Promise<void> {
    // 14 parameters a row; chunks stay under PostgreSQL's 65,535-parameter limit.
    for (let start = 0; start < events.length; start += 4000) {
      const chunk = events.slice(start, start + 4000);
      const values: unknown[] = [];
      const rows = chunk.map((e, i) => {
        values.push(
          e.id, e.type, e.severity, e.database_id, e.timestamp, e.processed_at,
          e.details.user ?? null, e.details.source_ip ?? null, e.details.session_id ?? null,
          e.producer_id, e.context.policy_id, e.context.rule_id, e.context.risk_score, JSON.stringify(e.details),
        );
        const b = i * COLUMNS.length;
        return `(${COLUMNS.map((_, j) => `$${b + j + 1}`).join(', ')})`;
      });
      await manager.query(`INSERT INTO event_ingest.events (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, values);
    }
  }

  /**
   * Records producer ids for new events. Returns, for ids accepted before (now or by a concurrent
   * transaction that committed first), the event id they were stored under.
   */
  async claimProducerIds(manager: EntityManager, claims: { producerId: string; eventId: string }[]): Promise<Map<string, string>> {
    if (!claims.length) return new Map();
    const inserted: { producer_id: string }[] = await manager.query(
      `INSERT INTO event_ingest.producer_ids (producer_id, event_id)
       SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING RETURNING producer_id`,
      [claims.map((c) => c.producerId), claims.map((c) => c.eventId)],
    );
    const fresh = new Set(inserted.map((r) => r.producer_id));
    const taken = claims.filter((c) => !fresh.has(c.producerId)).map((c) => c.producerId);
    if (!taken.length) return new Map();
    const rows: { producer_id: string; event_id: string }[] = await manager.query(
      `SELECT producer_id, event_id FROM event_ingest.producer_ids WHERE producer_id = ANY($1::text[])`,
      [taken],
    );
    return new Map(rows.map((r) => [r.producer_id, r.event_id]));
  }

  async findById(id: string): Promise<AuditEvent | null> {
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT id, type, severity, database_id, "timestamp", processed_at, producer_id, policy_id, rule_id, risk_score, details
       FROM event_ingest.events WHERE id = $1 LIMIT 1`,
      [id],
    );
    return rows[0] ? toEvent(rows[0]) : null;
  }

  /** Other events of the same session, newest first. */
  async findSameSession(event: AuditEvent, limit: number): Promise<string[]> {
    if (!event.details.session_id) return [];
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM event_ingest.events WHERE session_id = $1 AND database_id = $2 AND id <> $3
       ORDER BY "timestamp" DESC LIMIT $4`,
      [event.details.session_id, event.database_id, event.id, limit],
    );
    return rows.map((r) => r.id);
  }
}
