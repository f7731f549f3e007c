import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface OAuthClientRow {
  client_id: string;
  name: string;
  secret_hash: string;
  redirect_uris: string[];
  grant_types: string[];
  scopes: string[];
  created_at: Date;
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
}

export interface AuthorizationRequestRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  scopes: string[];
  state: string | null;
  code_challenge: string;
  csrf_hash: string;
  expires_at: Date;
  completed_at: Date | null;
}

export interface AuthorizationCodeRow {
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string[];
  code_challenge: string;
  family_id: string;
  expires_at: Date;
  used_at: Date | null;
}

const CLIENT_COLUMNS =
  'client_id, name, secret_hash, redirect_uris, grant_types, scopes, created_at, previous_secret_hash, previous_secret_expires_at, secret_rotated_at';

/** OAuth clients, pending authorization requests and authorization codes. */
@Injectable()
export class OAuthRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insertClient(
    row: Omit<OAuthClientRow, 'created_at' | 'previous_secret_hash' | 'previous_secret_expires_at' | 'secret_rotated_at'> & { created_by: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OAuthClientRow> {
    const [inserted] = await manager.query(
      `INSERT INTO auth.oauth_clients (client_id, name, secret_hash, redirect_uris, grant_types, scopes, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${CLIENT_COLUMNS}`,
      [row.client_id, row.name, row.secret_hash, row.redirect_uris, row.grant_types, row.scopes, row.created_by],
    );
    return inserted;
  }

  async findClient(clientId: string): Promise<OAuthClientRow | null> {
    const rows: OAuthClientRow[] = await this.dataSource.query(`SELECT ${CLIENT_COLUMNS} FROM auth.oauth_clients WHERE client_id = $1`, [clientId]);
    return rows[0] ?? null;
  }

  /**
   * A new secret; the current one stays valid until `overlapSeconds` from now (0: not at all). A
   * secret older than that (from a rotation before) stops at once.
   */
  async rotateSecret(clientId: string, secretHash: string, overlapSeconds: number, manager: EntityManager = this.dataSource.manager): Promise<OAuthClientRow | null> {
    const rows: OAuthClientRow[] = await manager.query(
      `WITH changed AS (
         UPDATE auth.oauth_clients SET
           previous_secret_hash = CASE WHEN $3 > 0 THEN secret_hash END,
           previous_secret_expires_at = CASE WHEN $3 > 0 THEN now() + make_interval(secs => $3) END,
           secret_hash = $2,
           secret_rotated_at = now()
         WHERE client_id = $1 RETURNING ${CLIENT_COLUMNS}
       ) SELECT * FROM changed`,
      [clientId, secretHash, overlapSeconds],
    );
    return rows[0] ?? null;
  }

  async lockClient(manager: EntityManager, clientId: string): Promise<OAuthClientRow | null> {
    const rows: OAuthClientRow[] = await manager.query(`SELECT ${CLIENT_COLUMNS} FROM auth.oauth_clients WHERE client_id = $1 FOR UPDATE`, [clientId]);
    return rows[0] ?? null;
  }

  /** Deletes a client; its pending requests, codes and refresh tokens go with it (ON DELETE CASCADE). */
  async deleteClient(manager: EntityManager, clientId: string): Promise<void> {
    await manager.query(`DELETE FROM auth.oauth_clients WHERE client_id = $1`, [clientId]);
  }

  async pageClients(limit: number, offset: number): Promise<{ rows: OAuthClientRow[]; total: number }> {
    const rows: OAuthClientRow[] = await this.dataSource.query(
      `SELECT ${CLIENT_COLUMNS} FROM auth.oauth_clients ORDER BY created_at DESC, client_id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const [{ n }] = await this.dataSource.query(`SELECT count(*)::int AS n FROM auth.oauth_clients`);
    return { rows, total: n };
  }

  async insertRequest(row: Omit<AuthorizationRequestRow, 'completed_at' | 'expires_at'> & { ttl_seconds: number }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO auth.oauth_requests (id, client_id, redirect_uri, scopes, state, code_challenge, csrf_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
      [row.id, row.client_id, row.redirect_uri, row.scopes, row.state, row.code_challenge, row.csrf_hash, row.ttl_seconds],
    );
  }

  async lockRequest(manager: EntityManager, id: string): Promise<AuthorizationRequestRow | null> {
    const rows: AuthorizationRequestRow[] = await manager.query(`SELECT * FROM auth.oauth_requests WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async completeRequest(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE auth.oauth_requests SET completed_at = now() WHERE id = $1`, [id]);
  }

  async insertCode(
    manager: EntityManager,
    row: Omit<AuthorizationCodeRow, 'expires_at' | 'used_at'> & { code_hash: string; ttl_seconds: number },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO auth.authorization_codes (code_hash, client_id, user_id, redirect_uri, scopes, code_challenge, family_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
      [row.code_hash, row.client_id, row.user_id, row.redirect_uri, row.scopes, row.code_challenge, row.family_id, row.ttl_seconds],
    );
  }

  async lockCode(manager: EntityManager, codeHash: string): Promise<AuthorizationCodeRow | null> {
    const rows: AuthorizationCodeRow[] = await manager.query(
      `SELECT client_id, user_id, redirect_uri, scopes, code_challenge, family_id, expires_at, used_at
       FROM auth.authorization_codes WHERE code_hash = $1 FOR UPDATE`,
      [codeHash],
    );
    return rows[0] ?? null;
  }

  async markCodeUsed(manager: EntityManager, codeHash: string): Promise<void> {
    await manager.query(`UPDATE auth.authorization_codes SET used_at = now() WHERE code_hash = $1`, [codeHash]);
  }

  /** Removes what can no longer be used: expired requests and codes past their use. */
  async purgeExpired(): Promise<void> {
    await this.dataSource.query(`DELETE FROM auth.oauth_requests WHERE expires_at < now() - interval '1 day'`);
    await this.dataSource.query(`DELETE FROM auth.authorization_codes WHERE expires_at < now() - interval '1 day'`);
  }
}
