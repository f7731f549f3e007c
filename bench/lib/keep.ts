import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Keeping a benchmark's database: BENCH_KEEP=1 keeps the database it loads (and prints its URL);
 * BENCH_DATABASE_URL=<that URL> runs on a kept database, which it then keeps too.
 */
export const benchReuseUrl = (): string | undefined => process.env.BENCH_DATABASE_URL || undefined;
export const benchKeep = (): boolean => process.env.BENCH_KEEP === '1' || Boolean(benchReuseUrl());

/**
 * The VIGIL_DATA_DIR for a run on `databaseUrl`. A kept database keeps its data folder, named after
 * the database (/tmp/vigil-bench-<database>): the encryption key in it is the one that opens the
 * signing keys auth stored in that database, so a later run on it must use the same folder. Otherwise
 * a fresh folder, which `done` removes.
 */
export function benchDataDir(databaseUrl: string, keep: boolean): { dir: string; done(): void } {
  if (keep) {
    const dir = join(tmpdir(), `vigil-bench-${new URL(databaseUrl).pathname.slice(1)}`);
    mkdirSync(dir, { recursive: true });
    return { dir, done: () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}
