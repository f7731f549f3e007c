import { usageError } from './errors.ts';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** An ISO 8601 time, or a duration back from now (`15m`, `24h`, `7d`, `2w`), as ISO 8601. */
export function parseTime(value: string, option: string, now = Date.now()): string {
  const [, amount, unit] = /^(\d+)([smhdw])$/.exec(value.trim()) ?? [];
  if (amount && unit) return new Date(now - Number(amount) * (UNITS[unit] ?? 0)).toISOString();
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw usageError(`${option} must be an ISO 8601 time (2026-01-31T00:00:00Z) or a duration back from now (15m, 24h, 7d)`);
  }
  return new Date(parsed).toISOString();
}

export function parsePositiveInt(option: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw usageError(`${option} must be a whole number from 1 to ${max}`);
    return n;
  };
}

/** For options given several times or comma-separated: `--database a --database b,c`. */
export const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];

export const joined = (values: string[] | undefined) => (values?.length ? values.join(',') : undefined);
