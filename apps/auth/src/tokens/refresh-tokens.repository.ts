import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  client_id: string | null;
  scopes: string[];
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

@Injectable()
export class RefreshTokensRepository {
  async insert(
    manager: EntityManager,
    row: { id: string; token_hash: string; user_id: string; family_id: string; client_id: string | null; scopes: string[]; ttl_seconds: number },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO auth.refresh_tokens (id, token_hash, user_id, family_id, client_id, scopes, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
      [row.id, row.token_hash, row.user_id, row.family_id, row.client_id, row.scopes, row.ttl_seconds],
    );
  }

  /** Locks the row, so two concurrent uses of one token cannot both rotate it. */
  async lockByHash(manager: EntityManager, tokenHash: string): Promise<RefreshTokenRow | null> {
    const rows: RefreshTokenRow[] = await manager.query(
      `SELECT id, user_id, family_id, client_id, scopes, expires_at, used_at, revoked_at
       FROM auth.refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  async markUsed(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE auth.refresh_tokens SET used_at = now() WHERE id = $1`, [id]);
  }

  /** Revokes every token of a family; returns the latest expiry among them (for the deny-list). */
  async revokeFamily(manager: EntityManager, familyId: string): Promise<Date | null> {
    const [row] = await manager.query(
      `WITH revoked AS (
         UPDATE auth.refresh_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE family_id = $1 RETURNING expires_at
       ) SELECT max(expires_at) AS expires_at FROM revoked`,
      [familyId],
    );
    return row?.expires_at ?? null;
  }
}
