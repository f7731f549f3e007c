import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { TcpContext } from '@nestjs/microservices';
import { createValidator, RpcPatterns, RpcPayloadSchemas, rpcCallAllowed, type RpcRefusalReason, type Validator } from '@vigil/contracts';
import { Counter, type Registry } from 'prom-client';
import { DomainException } from '../errors/domain.exception';
import type { Logger } from '../logging/logger';
import { peerIdentity } from './rpc-security';

export enum RpcErrorCode {
  CallerNotAllowed = 'rpc_caller_not_allowed',
}

/** Every pattern's payload validator (RpcPayloadSchemas names every pattern). */
const validators = new Map<string, Validator<never>>(
  Object.entries(RpcPayloadSchemas).map(([pattern, schema]) => [pattern, createValidator(schema) as unknown as Validator<never>] as const),
);

/** The counter of refused RPC calls, created once per registry. */
export function rpcRefusalCounter(metrics: Registry): Counter<'caller' | 'pattern' | 'reason'> {
  const existing = metrics.getSingleMetric('vigil_rpc_refused_total');
  if (existing) return existing as Counter<'caller' | 'pattern' | 'reason'>;
  return new Counter({
    name: 'vigil_rpc_refused_total',
    help: 'RPC calls refused before any handler ran, by caller identity, pattern and reason',
    labelNames: ['caller', 'pattern', 'reason'],
    registers: [metrics],
  });
}

/**
 * Runs before every RPC handler of a service (a global guard): the caller's identity comes from its
 * client certificate, verified by the TLS handshake; the call is refused unless the allow-list
 * (RpcAllowList) lets that caller call that pattern, or if its payload does not match the pattern's
 * schema (RpcPayloadSchemas; a pattern without a schema is refused too). A refusal is a problem
 * (403 or 400), logged as a warning with caller, pattern and reason, and counted in
 * `vigil_rpc_refused_total`. With RPC_INSECURE (`secured` false) no identity exists and only
 * payloads are checked.
 */
export class RpcCallerGuard implements CanActivate {
  private readonly refused: Counter<'caller' | 'pattern' | 'reason'>;
  private readonly identities = new WeakMap<object, string | undefined>();

  constructor(
    private readonly receiver: string,
    private readonly secured: boolean,
    private readonly logger: Logger,
    metrics: Registry,
  ) {
    this.refused = rpcRefusalCounter(metrics);
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'rpc') return true;
    const rpc = ctx.switchToRpc();
    const tcp = rpc.getContext<TcpContext>();
    const pattern = String(tcp?.getPattern?.() ?? '');
    let caller: string | undefined;
    if (this.secured) {
      const socket = tcp?.getSocketRef?.()?.netSocket as object | undefined;
      if (socket) {
        if (!this.identities.has(socket)) this.identities.set(socket, peerIdentity(socket));
        caller = this.identities.get(socket);
      }
      const allowed = rpcCallAllowed(this.receiver, caller, pattern);
      if (!allowed.ok) this.refuse(caller, pattern, allowed.reason);
    }
    const message = rpc.getData<{ meta?: unknown; data?: unknown } | undefined>();
    if (typeof message !== 'object' || message === null || typeof message.meta !== 'object' || message.meta === null || Array.isArray(message.meta)) {
      this.refuse(caller, pattern, 'malformed_message', DomainException.validation([{ field: '$', message: 'must be an RPC message ({ meta, data })' }]));
    }
    // Fail closed: a pattern without a payload schema is refused like a payload that breaks one.
    const validator = validators.get(pattern);
    const result = validator ? validator.validate(message.data) : { ok: false as const, errors: [{ field: '$', message: 'no payload schema for this pattern' }] };
    if (!result.ok) this.refuse(caller, pattern, 'invalid_payload', DomainException.validation(result.errors));
    return true;
  }

  private refuse(caller: string | undefined, pattern: string, reason: RpcRefusalReason | 'malformed_message' | 'invalid_payload', error?: DomainException): never {
    // A pattern no handler has would make a label per attacker's string: one label for all of them.
    const known = isKnownPattern(pattern);
    this.refused.inc({ caller: caller ?? 'none', pattern: known ? pattern : 'unknown', reason });
    this.logger.warn({ caller: caller ?? null, pattern: pattern.slice(0, 200), reason, errors: error?.errors }, 'rpc call refused');
    throw error ?? new DomainException(403, RpcErrorCode.CallerNotAllowed, reason === 'unauthenticated' ? 'The caller has no verified identity.' : `The caller may not call ${pattern.slice(0, 200)}.`);
  }
}

const knownPatterns = new Set<string>(Object.values(RpcPatterns).flatMap((group) => Object.values(group)));
function isKnownPattern(pattern: string): boolean {
  return knownPatterns.has(pattern);
}
