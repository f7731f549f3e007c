import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  scopes: string[];
  created_at?: Date;
  disabled_at?: Date | null;
  /** The account the start-up bootstrap owns (AUDIT_ADMIN_EMAIL). */
  bootstrap?: boolean;
}

const COLUMNS = 'id, email, password_hash, scopes, created_at, disabled_at, bootstrap';

@Injectable()
export class UsersRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async findByEmail(email: string): Promise<UserRow | null> {
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT id, email, password_hash, scopes, bootstrap, disabled_at FROM auth.users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0] ?? null;
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<UserRow | null> {
    const rows: UserRow[] = await manager.query(`SELECT ${COLUMNS} FROM auth.users WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Locks the row for a change in `manager`'s transaction. */
  async lockById(manager: EntityManager, id: string): Promise<UserRow | null> {
    const rows: UserRow[] = await manager.query(`SELECT ${COLUMNS} FROM auth.users WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  /**
   * Administrators who can still act (enabled), other than `exceptId`. Taken under a lock that
   * serialises changes to administrators, so two concurrent demotions cannot both pass the check.
   */
  async countOtherActiveAdmins(manager: EntityManager, exceptId: string): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('vigil:auth:admins'))`);
    const [row] = await manager.query(
      `SELECT count(*)::int AS n FROM auth.users WHERE 'admin' = ANY(scopes) AND disabled_at IS NULL AND id <> $1`,
      [exceptId],
    );
    return row.n;
  }

  async update(manager: EntityManager, id: string, changes: { scopes?: string[]; disabled?: boolean; password_hash?: string }): Promise<UserRow | null> {
    const rows: UserRow[] = await manager.query(
      `WITH changed AS (
         UPDATE auth.users SET
           scopes = COALESCE($2::text[], scopes),
           disabled_at = CASE WHEN $3::boolean IS NULL THEN disabled_at WHEN $3 THEN COALESCE(disabled_at, now()) ELSE NULL END,
           password_hash = COALESCE($4, password_hash),
           updated_at = now()
         WHERE id = $1 RETURNING ${COLUMNS}
       ) SELECT * FROM changed`,
      [id, changes.scopes ?? null, changes.disabled ?? null, changes.password_hash ?? null],
    );
    return rows[0] ?? null;
  }

  async delete(manager: EntityManager, id: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`WITH gone AS (DELETE FROM auth.users WHERE id = $1 RETURNING id) SELECT id FROM gone`, [id]);
    return rows.length === 1;
  }

  async countAdmins(): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM auth.users WHERE 'admin' = ANY(scopes)`);
    return row.n;
  }

  /**
   * Creates the bootstrap account or updates it, in one statement; an account with the e-mail that
   * is not the bootstrap's is left untouched (false), even if it appeared a moment ago.
   */
  async upsertBootstrap(user: UserRow): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO auth.users (id, email, password_hash, scopes, bootstrap) VALUES ($1, $2, $3, $4, true)
       ON CONFLICT ((lower(email))) DO UPDATE SET password_hash = EXCLUDED.password_hash,
         scopes = EXCLUDED.scopes, updated_at = now()
         WHERE auth.users.bootstrap
       RETURNING id`,
      [user.id, user.email, user.password_hash, user.scopes],
    );
    return rows.length === 1;
  }

  /** Inserts a user; false when the e-mail address is taken. */
  async insert(user: UserRow, manager: EntityManager = this.dataSource.manager): Promise<UserRow | null> {
    const rows: UserRow[] = await manager.query(
      `INSERT INTO auth.users (id, email, password_hash, scopes) VALUES ($1, $2, $3, $4)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING ${COLUMNS}`,
      [user.id, user.email, user.password_hash, user.scopes],
    );
    return rows[0] ?? null;
  }

  async page(limit: number, offset: number): Promise<{ rows: UserRow[]; total: number }> {
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM auth.users ORDER BY created_at, id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const [{ n }] = await this.dataSource.query(`SELECT count(*)::int AS n FROM auth.users`);
    return { rows, total: n };
  }
}
