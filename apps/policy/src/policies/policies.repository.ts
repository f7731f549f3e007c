import { Inject, Injectable } from '@nestjs/common';
import { enforcementModeOf, type ListPoliciesRequest, type PolicyEnforcementMode, type PolicyListItem, type PolicyResponse, type PolicySnapshot, type PolicyType } from '@vigil/contracts';
import { inSnapshot } from '@vigil/database';
import { DataSource, type EntityManager } from 'typeorm';

interface PolicyRow {
  id: string;
  name: string;
  type: PolicyType;
  enabled: boolean;
  enforcement_mode: PolicyEnforcementMode;
  description: string;
  databases: string[];
  config: Record<string, unknown>;
  version: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  violation_count?: string | null;
  last_violation_at?: Date | null;
}

const SELECT = `SELECT p.id, p.name, p.type, p.enabled, p.enforcement_mode, p.description, p.databases, p.config, p.version, p.created_at,
  p.updated_at, p.deleted_at, COALESCE(s.violation_count, 0) AS violation_count, s.last_violation_at
  FROM policy.policies p LEFT JOIN policy.violation_stats s ON s.policy_id = p.id`;

export function toPolicyResponse(row: PolicyRow): PolicyResponse {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    enabled: row.enabled,
    enforcement_mode: row.enforcement_mode,
    description: row.description,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    databases: row.databases,
    config: row.config,
    violation_count: Number(row.violation_count ?? 0),
    last_violation_at: row.last_violation_at ? row.last_violation_at.toISOString() : null,
  };
}

export function toPolicyListItem(row: PolicyRow): PolicyListItem {
  const { config: _config, last_violation_at: _last, ...item } = toPolicyResponse(row);
  return item;
}

function toSnapshot(row: PolicyRow): PolicySnapshot {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    enabled: row.enabled,
    enforcement_mode: row.enforcement_mode,
    description: row.description,
    databases: row.databases,
    config: row.deleted_at ? {} : row.config,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    deleted: row.deleted_at !== null,
  };
}

/** The policies read model (a projection of policy.event_store); SQL only. */
@Injectable()
export class PoliciesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Writes the state a command produced, in the command's transaction. */
  async project(manager: EntityManager, state: PolicySnapshot): Promise<void> {
    await manager.query(
      `INSERT INTO policy.policies (id, name, type, enabled, description, databases, config, version, created_at, updated_at, deleted_at, enforcement_mode)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, type = EXCLUDED.type, enabled = EXCLUDED.enabled,
         enforcement_mode = EXCLUDED.enforcement_mode, description = EXCLUDED.description, databases = EXCLUDED.databases, config = EXCLUDED.config,
         version = EXCLUDED.version, updated_at = EXCLUDED.updated_at, deleted_at = EXCLUDED.deleted_at`,
      [
        state.id, state.name, state.type, state.enabled, state.description, state.databases, JSON.stringify(state.config),
        state.version, state.created_at, state.updated_at, state.deleted ? state.updated_at : null, enforcementModeOf(state),
      ],
    );
  }

  async nameTaken(manager: EntityManager, name: string, exceptId?: string): Promise<boolean> {
    const rows = await manager.query(`SELECT 1 FROM policy.policies WHERE name = $1 AND deleted_at IS NULL AND id <> $2`, [name, exceptId ?? '']);
    return rows.length > 0;
  }

  /** A policy of the read model; deleted ones only when asked for. */
  async find(id: string, options: { includeDeleted?: boolean } = {}): Promise<PolicyResponse | null> {
    const rows: PolicyRow[] = await this.dataSource.query(
      `${SELECT} WHERE p.id = $1 ${options.includeDeleted ? '' : 'AND p.deleted_at IS NULL'}`,
      [id],
    );
    return rows[0] ? toPolicyResponse(rows[0]) : null;
  }

  async findRow(id: string): Promise<{ deleted: boolean; snapshot: PolicySnapshot } | null> {
    const rows: PolicyRow[] = await this.dataSource.query(`${SELECT} WHERE p.id = $1`, [id]);
    return rows[0] ? { deleted: rows[0].deleted_at !== null, snapshot: toSnapshot(rows[0]) } : null;
  }

  async list(filter: ListPoliciesRequest): Promise<{ rows: PolicyListItem[]; total: number }> {
    const where = ['p.deleted_at IS NULL'];
    const params: unknown[] = [];
    if (filter.type) where.push(`p.type = $${params.push(filter.type)}`);
    if (filter.enabled !== undefined) where.push(`p.enabled = $${params.push(filter.enabled)}`);
    if (filter.enforcement_mode) where.push(`p.enforcement_mode = $${params.push(filter.enforcement_mode)}`);
    if (filter.database_id) where.push(`(p.databases @> ARRAY[$${params.push(filter.database_id)}]::text[] OR p.databases @> ARRAY['*']::text[])`);
    const clause = where.join(' AND ');
    const order = filter.sort === 'violation_count' ? 'COALESCE(s.violation_count, 0) DESC, p.created_at, p.id' : 'p.created_at, p.id';
    // One snapshot for the page and its total.
    const { total, rows } = await inSnapshot(this.dataSource, async (manager) => {
      const [{ total }] = await manager.query(`SELECT count(*)::int AS total FROM policy.policies p WHERE ${clause}`, params);
      const rows: PolicyRow[] = await manager.query(
      `${SELECT} WHERE ${clause} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, filter.per_page, (filter.page - 1) * filter.per_page],
      );
      return { total: total as number, rows };
    });
    return { rows: rows.map(toPolicyListItem), total };
  }

  /** Every policy's state, deleted ones included (enforcement caches need their versions). */
  async snapshots(): Promise<PolicySnapshot[]> {
    const rows: PolicyRow[] = await this.dataSource.query(`${SELECT} ORDER BY p.id`);
    return rows.map(toSnapshot);
  }
}
