import { AsyncLocalStorage } from 'node:async_hooks';
import { ActorKinds, type ActorKind } from '@vigil/contracts';

/**
 * Who made the request in progress and from where: set by the gateway from the authenticated
 * principal and the client address (TRUST_PROXY honoured), carried to the owning service in the
 * RPC message's meta, never read from a request body. Services record it in vigil.* events.
 */
export interface RequestOrigin {
  actor: { kind: ActorKind; id: string | null };
  source_ip: string | null;
  user_agent: string | null;
}

const storage = new AsyncLocalStorage<RequestOrigin>();

export function currentRequestOrigin(): RequestOrigin | undefined {
  return storage.getStore();
}

export function withRequestOrigin<T>(origin: RequestOrigin | undefined, fn: () => T): T {
  return origin ? storage.run(origin, fn) : fn();
}

/** Printable text only: control characters (which could forge log lines) are dropped. */
const printable = (value: string) => [...value].filter((c) => c >= ' ' && c !== '\u007f').join('');

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.length ? printable(value.slice(0, max)) || null : null;

/** Accepts an origin from RPC meta only in its exact shape; anything else is no origin. */
export function sanitizeRequestOrigin(value: unknown): RequestOrigin | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { actor, source_ip, user_agent } = value as Record<string, unknown>;
  if (!actor || typeof actor !== 'object') return undefined;
  const { kind, id } = actor as Record<string, unknown>;
  if (typeof kind !== 'string' || !(ActorKinds as readonly string[]).includes(kind)) return undefined;
  return {
    actor: { kind: kind as ActorKind, id: text(id, 200) },
    source_ip: text(source_ip, 64),
    user_agent: text(user_agent, 512),
  };
}
