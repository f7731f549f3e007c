import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The tables whose rows stop being of use once `expires_at` has passed, with their keys. */
export const EXPIRING_TABLES = [
  { table: 'auth.oauth_requests', key: 'id' },
  { table: 'auth.authorization_codes', key: 'code_hash' },
  { table: 'auth.refresh_tokens', key: 'id' },
] as const;

@Injectable()
export class ExpiredGrantsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Deletes at most `limit` rows of `table` that expired before now; returns how many. Rows another
   * replica is deleting at the same moment are skipped, not waited for.
   */
  async deleteExpired(target: (typeof EXPIRING_TABLES)[number], limit: number): Promise<number> {
    const [, count] = (await this.dataSource.query(
      `DELETE FROM ${target.table} WHERE ${target.key} IN (
         SELECT ${target.key} FROM ${target.table} WHERE expires_at < now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [limit],
    )) as [unknown, number];
    return count;
  }
}
