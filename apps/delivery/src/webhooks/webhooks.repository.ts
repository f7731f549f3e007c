import { Inject, Injectable } from '@nestjs/common';
import type { WebhookForm } from '@vigil/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsOf } from '../database/rows';

export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  form: WebhookForm;
  secret_sealed: string;
  secret_key_id: string;
  description: string;
  active: boolean;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What the consumer needs to route events: active subscriptions and their patterns. */
export interface RoutingRow {
  id: string;
  events: string[];
  form: WebhookForm;
  failing: boolean;
}

const COLUMNS = 'id, url, events, form, secret_sealed, secret_key_id, description, active, failing_since, last_success_at, created_at, updated_at';

/** SQL for webhook subscriptions; no business rules. */
@Injectable()
export class WebhooksRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(
    row: Omit<WebhookRow, 'failing_since' | 'last_success_at' | 'created_at' | 'updated_at'>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<WebhookRow> {
    const [created]: WebhookRow[] = await manager.query(
      `INSERT INTO delivery.webhooks (id, url, events, form, secret_sealed, secret_key_id, description, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [row.id, row.url, row.events, row.form, row.secret_sealed, row.secret_key_id, row.description, row.active],
    );
    return created!;
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<WebhookRow | null> {
    const rows: WebhookRow[] = await manager.query(`SELECT ${COLUMNS} FROM delivery.webhooks WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async list(page: number, perPage: number): Promise<{ rows: WebhookRow[]; total: number }> {
    const rows: (WebhookRow & { total: number })[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM delivery.webhooks ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [perPage, (page - 1) * perPage],
    );
    if (rows.length) return { rows, total: rows[0]!.total };
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM delivery.webhooks`);
    return { rows, total };
  }

  /** Applies the given changes; a change of url or a re-activation clears the failing flag. */
  async update(
    manager: EntityManager,
    id: string,
    changes: { url?: string; events?: string[]; description?: string; active?: boolean; clearFailing: boolean },
  ): Promise<WebhookRow | null> {
    const rows = rowsOf<WebhookRow>(await manager.query(
      `UPDATE delivery.webhooks SET
         url = COALESCE($2, url),
         events = COALESCE($3, events),
         description = COALESCE($4, description),
         active = COALESCE($5, active),
         failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
         consecutive_failures = CASE WHEN $6 THEN 0 ELSE consecutive_failures END,
         updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, changes.url ?? null, changes.events ?? null, changes.description ?? null, changes.active ?? null, changes.clearFailing],
    ));
    return rows[0] ?? null;
  }

  /** Deletes the subscription and answers it as it was; null when there is none. */
  async delete(id: string, manager: EntityManager = this.dataSource.manager): Promise<WebhookRow | null> {
    const rows = rowsOf<WebhookRow>(await manager.query(`DELETE FROM delivery.webhooks WHERE id = $1 RETURNING ${COLUMNS}`, [id]));
    return rows[0] ?? null;
  }

  async activeRouting(manager: EntityManager): Promise<RoutingRow[]> {
    return manager.query(`SELECT id, events, form, failing_since IS NOT NULL AS failing FROM delivery.webhooks WHERE active`);
  }
}
