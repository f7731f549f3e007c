import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  scopes: string[];
  created_at?: Date;
  /** The account the start-up bootstrap owns (AUDIT_ADMIN_EMAIL). */
  bootstrap?: boolean;
}

@Injectable()
export class UsersRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async findByEmail(email: string): Promise<UserRow | null> {
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT id, email, password_hash, scopes, bootstrap FROM auth.users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0] ?? null;
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<UserRow | null> {
    const rows: UserRow[] = await manager.query(`SELECT id, email, password_hash, scopes FROM auth.users WHERE id = $1`, [id]);
    return rows[0] ?? null;
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
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id, email, password_hash, scopes, created_at`,
      [user.id, user.email, user.password_hash, user.scopes],
    );
    return rows[0] ?? null;
  }

  async page(limit: number, offset: number): Promise<{ rows: UserRow[]; total: number }> {
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT id, email, password_hash, scopes, created_at FROM auth.users ORDER BY created_at, id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const [{ n }] = await this.dataSource.query(`SELECT count(*)::int AS n FROM auth.users`);
    return { rows, total: n };
  }
}
