import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface CorrelationStore {
  correlationId: string;
}

const storage = new AsyncLocalStorage<CorrelationStore>();

/** The correlation id of the work in progress (HTTP request, consumed message), if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

export function withCorrelationId<T>(correlationId: string | undefined, fn: () => T): T {
  return storage.run({ correlationId: sanitizeCorrelationId(correlationId) ?? randomUUID() }, fn);
}

/** Accepts a caller's id only if it is short and printable, so it cannot forge log lines. */
export function sanitizeCorrelationId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined;
}
