import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  client_id: string | null;
  scopes: string[];
  expires_at: Date;
  session_expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

@Injectable()
export class RefreshTokensRepository {
  async insert(
    manager: EntityManager,
    row: {
      id: string;
      token_hash: string;
      user_id: string;
      family_id: string;
      client_id: string | null;
      scopes: string[];
      ttl_seconds: number;
      /** The session's end: carried from the token rotated, or null for a new session (now + absolute lifetime). */
      session_expires_at: Date | null;
      absolute_ttl_seconds: number;
    },
  ): Promise<void> {
    // A token never outlives its session: the idle lifetime is cut at the absolute one.
    await manager.query(
      `WITH s AS (SELECT COALESCE($8::timestamptz, now() + make_interval(secs => $9)) AS ends)
       INSERT INTO auth.refresh_tokens (id, token_hash, user_id, family_id, client_id, scopes, expires_at, session_expires_at)
       SELECT $1, $2, $3, $4, $5, $6, LEAST(now() + make_interval(secs => $7), s.ends), s.ends FROM s`,
      [row.id, row.token_hash, row.user_id, row.family_id, row.client_id, row.scopes, row.ttl_seconds, row.session_expires_at, row.absolute_ttl_seconds],
    );
  }

  /** Revokes every open session of a user; returns each family with its latest expiry. */
  async revokeUserSessions(manager: EntityManager, userId: string, exceptFamilyId: string | null = null): Promise<{ family_id: string; expires_at: Date }[]> {
    return manager.query(
      `WITH revoked AS (
         UPDATE auth.refresh_tokens SET revoked_at = now()
         -- A family whose refresh token ran out may still have access tokens alive (a day at most).
         WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() - interval '1 day' AND family_id IS DISTINCT FROM $2
         RETURNING family_id, expires_at
       ) SELECT family_id, max(expires_at) AS expires_at FROM revoked GROUP BY family_id`,
      [userId, exceptFamilyId],
    );
  }

  /** Revokes every open session issued to an OAuth client (before it is deleted). */
  async revokeClientSessions(manager: EntityManager, clientId: string): Promise<{ family_id: string }[]> {
    return manager.query(
      `WITH revoked AS (
         UPDATE auth.refresh_tokens SET revoked_at = now()
         WHERE client_id = $1 AND revoked_at IS NULL AND expires_at > now() - interval '1 day' RETURNING family_id
       ) SELECT DISTINCT family_id FROM revoked`,
      [clientId],
    );
  }

  /** Whether the family belongs to the user (a logout names its own session only). */
  async familyOwner(manager: EntityManager, familyId: string): Promise<string | null> {
    const rows: { user_id: string }[] = await manager.query(`SELECT user_id FROM auth.refresh_tokens WHERE family_id = $1 LIMIT 1`, [familyId]);
    return rows[0]?.user_id ?? null;
  }

  /** Locks the row, so two concurrent uses of one token cannot both rotate it. */
  async lockByHash(manager: EntityManager, tokenHash: string): Promise<RefreshTokenRow | null> {
    const rows: RefreshTokenRow[] = await manager.query(
      `SELECT id, user_id, family_id, client_id, scopes, expires_at, session_expires_at, used_at, revoked_at
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
