import { Inject, Injectable } from '@nestjs/common';
import type { ListViolationsRequest, PolicyViolation } from '@vigil/contracts';
import { inSnapshot } from '@vigil/database';
import { DataSource, type EntityManager } from 'typeorm';

interface ViolationRow {
  id: string;
  policy_id: string;
  timestamp: Date;
  user_name: string | null;
  database_id: string;
  source_ip: string | null;
  query: string | null;
  matched_conditions: string[];
  action_taken: string;
  severity: string;
}

export function toViolationResponse(row: ViolationRow): PolicyViolation {
  return {
    id: row.id,
    policy_id: row.policy_id,
    timestamp: row.timestamp.toISOString(),
    user: row.user_name,
    database: row.database_id,
    source_ip: row.source_ip,
    query: row.query,
    matched_conditions: row.matched_conditions,
    action_taken: row.action_taken,
    severity: row.severity,
  };
}

/** Violation records and their per-policy counters; SQL only. */
@Injectable()
export class ViolationsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Inserts new violations (known ids are skipped) and returns the ones inserted. */
  async insert(manager: EntityManager, violations: (PolicyViolation & { event_id: string })[]): Promise<{ policy_id: string; timestamp: Date }[]> {
    if (!violations.length) return [];
    const cols = (f: (v: PolicyViolation & { event_id: string }) => unknown) => violations.map(f);
    return manager.query(
      `INSERT INTO policy.violations (id, policy_id, "timestamp", user_name, database_id, source_ip, query, matched_conditions, action_taken, severity, event_id)
       SELECT v.id, v.policy_id, v.ts, v.user_name, v.database_id, v.source_ip, v.query,
              ARRAY(SELECT jsonb_array_elements_text(v.matched)), v.action_taken, v.severity, v.event_id
       FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::text[], $11::text[])
         AS v(id, policy_id, ts, user_name, database_id, source_ip, query, matched, action_taken, severity, event_id)
       ON CONFLICT (id) DO NOTHING
       RETURNING policy_id, "timestamp"`,
      [
        cols((v) => v.id), cols((v) => v.policy_id), cols((v) => v.timestamp), cols((v) => v.user), cols((v) => v.database),
        cols((v) => v.source_ip), cols((v) => v.query), cols((v) => JSON.stringify(v.matched_conditions)), cols((v) => v.action_taken),
        cols((v) => v.severity), cols((v) => v.event_id),
      ],
    );
  }

  /** Adds to the counters in one statement per policy: the row lock serialises concurrent batches. */
  async addToStats(manager: EntityManager, increments: { policyId: string; count: number; last: Date }[]): Promise<void> {
    if (!increments.length) return;
    // Sorted, so two batches never lock the same counters in opposite orders (no deadlock).
    const sorted = [...increments].sort((a, b) => (a.policyId < b.policyId ? -1 : 1));
    await manager.query(
      `INSERT INTO policy.violation_stats (policy_id, violation_count, last_violation_at)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[])
       ON CONFLICT (policy_id) DO UPDATE SET
         violation_count = policy.violation_stats.violation_count + EXCLUDED.violation_count,
         last_violation_at = GREATEST(policy.violation_stats.last_violation_at, EXCLUDED.last_violation_at)`,
      [sorted.map((i) => i.policyId), sorted.map((i) => i.count), sorted.map((i) => i.last)],
    );
  }

  async list(request: ListViolationsRequest): Promise<{ rows: PolicyViolation[]; total: number }> {
    const where = ['policy_id = $1'];
    const params: unknown[] = [request.policy_id];
    if (request.start_date) where.push(`"timestamp" >= $${params.push(request.start_date)}`);
    if (request.end_date) where.push(`"timestamp" <= $${params.push(request.end_date)}`);
    if (request.severity?.length) where.push(`severity = ANY($${params.push(request.severity)}::text[])`);
    if (request.user) where.push(`user_name = $${params.push(request.user)}`);
    const clause = where.join(' AND ');
    // One snapshot for the page and its total: a violation committed in between cannot make them disagree.
    const { total, rows } = await inSnapshot(this.dataSource, async (manager) => {
      const [{ total }] = await manager.query(`SELECT count(*)::int AS total FROM policy.violations WHERE ${clause}`, params);
      const rows: ViolationRow[] = await manager.query(
      `SELECT id, policy_id, "timestamp", user_name, database_id, source_ip, query, matched_conditions, action_taken, severity
       FROM policy.violations WHERE ${clause} ORDER BY "timestamp" DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, request.limit, (request.page - 1) * request.limit],
      );
      return { total: total as number, rows };
    });
    return { rows: rows.map(toViolationResponse), total };
  }
}
