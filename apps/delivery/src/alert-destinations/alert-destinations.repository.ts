import { Inject, Injectable } from '@nestjs/common';
import type { AlertDestinationSecretField, AlertDestinationSettings } from '@vigil/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsOf } from '../database/rows';

export interface DestinationRow {
  id: string;
  name: string;
  enabled: boolean;
  settings: AlertDestinationSettings;
  secrets_sealed: string | null;
  secrets_set: AlertDestinationSecretField[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, enabled, settings, secrets_sealed, secrets_set, created_at, updated_at';

/** SQL for alert destinations; no business rules. */
@Injectable()
export class AlertDestinationsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Null when the name is taken. */
  async insert(row: Omit<DestinationRow, 'created_at' | 'updated_at'>, manager: EntityManager = this.dataSource.manager): Promise<DestinationRow | null> {
    const rows: DestinationRow[] = await manager.query(
      `INSERT INTO delivery.alert_destinations (id, name, enabled, settings, secrets_sealed, secrets_set)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING RETURNING ${COLUMNS}`,
      [row.id, row.name, row.enabled, JSON.stringify(row.settings), row.secrets_sealed, row.secrets_set],
    );
    return rows[0] ?? null;
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<DestinationRow | null> {
    const rows: DestinationRow[] = await manager.query(`SELECT ${COLUMNS} FROM delivery.alert_destinations WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async findByName(name: string): Promise<DestinationRow | null> {
    const rows: DestinationRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM delivery.alert_destinations WHERE name = $1`, [name]);
    return rows[0] ?? null;
  }

  async list(page: number, perPage: number): Promise<{ rows: DestinationRow[]; total: number }> {
    const rows: (DestinationRow & { total: number })[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM delivery.alert_destinations ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [perPage, (page - 1) * perPage],
    );
    if (rows.length) return { rows, total: rows[0]!.total };
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM delivery.alert_destinations`);
    return { rows, total };
  }

  /** 'taken' when the new name belongs to another destination. */
  async update(row: Omit<DestinationRow, 'created_at' | 'updated_at'>, manager: EntityManager = this.dataSource.manager): Promise<DestinationRow | null | 'taken'> {
    try {
      const rows = rowsOf<DestinationRow>(await manager.query(
        `UPDATE delivery.alert_destinations SET name = $2, enabled = $3, settings = $4, secrets_sealed = $5, secrets_set = $6, updated_at = now()
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [row.id, row.name, row.enabled, JSON.stringify(row.settings), row.secrets_sealed, row.secrets_set],
      ));
      return rows[0] ?? null;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'taken';
      throw error;
    }
  }

  /** Deletes the destination and answers it as it was; null when there is none. */
  async delete(id: string, manager: EntityManager = this.dataSource.manager): Promise<DestinationRow | null> {
    const rows = rowsOf<DestinationRow>(await manager.query(`DELETE FROM delivery.alert_destinations WHERE id = $1 RETURNING ${COLUMNS}`, [id]));
    return rows[0] ?? null;
  }

  /** Every enabled destination, for routing a new or escalated alert. */
  async enabled(manager: EntityManager): Promise<DestinationRow[]> {
    return manager.query(`SELECT ${COLUMNS} FROM delivery.alert_destinations WHERE enabled`);
  }
}
