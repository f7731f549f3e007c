import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, prefix, scopes, created_at, expires_at, last_used_at, revoked_at';

@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(
    row: { id: string; name: string; prefix: string; key_hash: string; scopes: string[]; created_by: string; expires_at: string | null },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ApiKeyRow> {
    const [inserted] = await manager.query(
      `INSERT INTO auth.api_keys (id, name, prefix, key_hash, scopes, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [row.id, row.name, row.prefix, row.key_hash, row.scopes, row.created_by, row.expires_at],
    );
    return inserted;
  }

  async findByHash(keyHash: string): Promise<ApiKeyRow | null> {
    const rows: ApiKeyRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM auth.api_keys WHERE key_hash = $1`, [keyHash]);
    return rows[0] ?? null;
  }

  async page(limit: number, offset: number): Promise<{ rows: ApiKeyRow[]; total: number }> {
    const rows: ApiKeyRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM auth.api_keys ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const [{ n }] = await this.dataSource.query(`SELECT count(*)::int AS n FROM auth.api_keys`);
    return { rows, total: n };
  }

  /** The key as it is, locked until the transaction ends; null when there is no such key. */
  async lock(manager: EntityManager, id: string): Promise<ApiKeyRow | null> {
    const rows: ApiKeyRow[] = await manager.query(`SELECT ${COLUMNS} FROM auth.api_keys WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  /** Marks the key revoked; null when there is no such key. Revoking twice keeps the first time. */
  async revoke(manager: EntityManager, id: string): Promise<ApiKeyRow | null> {
    // A CTE makes this a SELECT, whose result TypeORM returns as plain rows (an UPDATE's is [rows, count]).
    const rows: ApiKeyRow[] = await manager.query(
      `WITH revoked AS (UPDATE auth.api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS})
       SELECT * FROM revoked`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Revokes every live key a credential created (`user:<id>`); returns them. */
  async revokeCreatedBy(manager: EntityManager, createdBy: string): Promise<ApiKeyRow[]> {
    return manager.query(
      `WITH revoked AS (
         UPDATE auth.api_keys SET revoked_at = now() WHERE created_by = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}
       ) SELECT * FROM revoked`,
      [createdBy],
    );
  }

  async lockById(manager: EntityManager, id: string): Promise<(ApiKeyRow & { created_by: string }) | null> {
    const rows: (ApiKeyRow & { created_by: string })[] = await manager.query(`SELECT ${COLUMNS}, created_by FROM auth.api_keys WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async insertWith(
    manager: EntityManager,
    row: { id: string; name: string; prefix: string; key_hash: string; scopes: string[]; created_by: string; expires_at: Date | null },
  ): Promise<ApiKeyRow> {
    const [inserted] = await manager.query(
      `INSERT INTO auth.api_keys (id, name, prefix, key_hash, scopes, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [row.id, row.name, row.prefix, row.key_hash, row.scopes, row.created_by, row.expires_at],
    );
    return inserted;
  }

  /** Cuts a key's life short (an overlap after rotation): the earlier of its expiry and `until`. */
  async expireBy(manager: EntityManager, id: string, until: Date): Promise<ApiKeyRow> {
    const [row] = await manager.query(
      `WITH changed AS (
         UPDATE auth.api_keys SET expires_at = LEAST(COALESCE(expires_at, $2), $2) WHERE id = $1 RETURNING ${COLUMNS}
       ) SELECT * FROM changed`,
      [id, until],
    );
    return row;
  }

  async touch(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.dataSource.query(`UPDATE auth.api_keys SET last_used_at = now() WHERE id = ANY($1::text[])`, [ids]);
  }
}
