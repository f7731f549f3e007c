import type { ExecutionContext } from '@nestjs/common';
import { RpcPatterns } from '@vigil/contracts';
import pino from 'pino';
import { Registry } from 'prom-client';
import { DomainException } from '../errors/domain.exception';
import { RpcCallerGuard } from './rpc-guard';

/** An RPC execution context as Nest builds it for the TCP transport, with a TLS peer. */
function rpcContext(pattern: string, data: unknown, peer: string | undefined): ExecutionContext {
  const socket = { authorized: peer !== undefined, getPeerCertificate: () => ({ subject: { CN: peer } }) };
  const tcp = { getPattern: () => pattern, getSocketRef: () => ({ netSocket: socket }) };
  return { getType: () => 'rpc', switchToRpc: () => ({ getContext: () => tcp, getData: () => data }) } as unknown as ExecutionContext;
}

describe('RpcCallerGuard', () => {
  const setup = () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const metrics = new Registry();
    return { lines, metrics, guard: new RpcCallerGuard('auth', true, logger, metrics) };
  };
  const count = async (metrics: Registry, labels: Record<string, string>) =>
    (await metrics.getSingleMetric('vigil_rpc_refused_total')!.get()).values.find((v) => Object.entries(labels).every(([k, w]) => v.labels[k] === w))?.value ?? 0;
  const key = { name: 'k', scopes: ['read:logs'], expires_at: null, created_by: 'user:usr_1' };

  it('lets an allowed caller through with a valid payload', () => {
    const { guard } = setup();
    expect(guard.canActivate(rpcContext(RpcPatterns.auth.apiKeysCreate, { meta: {}, data: key }, 'gateway'))).toBe(true);
  });

  it('refuses, logs (caller, pattern, reason) and counts a caller the allow-list does not name', async () => {
    const { guard, lines, metrics } = setup();
    let error: unknown;
    try {
      guard.canActivate(rpcContext(RpcPatterns.auth.apiKeysCreate, { meta: {}, data: key }, 'pg-proxy'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainException);
    expect(error).toMatchObject({ status: 403, code: 'rpc_caller_not_allowed' });
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'rpc call refused', caller: 'pg-proxy', pattern: RpcPatterns.auth.apiKeysCreate, reason: 'unknown_caller' })]);
    expect(await count(metrics, { caller: 'pg-proxy', pattern: RpcPatterns.auth.apiKeysCreate, reason: 'unknown_caller' })).toBe(1);
  });

  it('refuses a socket without a verified certificate, and labels unknown patterns as one', async () => {
    const { guard, metrics } = setup();
    expect(() => guard.canActivate(rpcContext(RpcPatterns.auth.login, { meta: {}, data: {} }, undefined))).toThrow(/no verified identity/);
    expect(() => guard.canActivate(rpcContext('auth.anything-made-up', { meta: {}, data: {} }, 'gateway'))).toThrow(DomainException);
    expect(await count(metrics, { caller: 'none', reason: 'unauthenticated' })).toBe(1);
    expect(await count(metrics, { caller: 'gateway', pattern: 'unknown', reason: 'pattern_not_allowed' })).toBe(1);
  });

  it('refuses a payload that does not match the contract (400, the fields named) and a message without meta', () => {
    const { guard } = setup();
    const bad = () => guard.canActivate(rpcContext(RpcPatterns.auth.apiKeysCreate, { meta: {}, data: { ...key, scopes: ["admin' --"] } }, 'gateway'));
    expect(bad).toThrow(DomainException);
    try {
      bad();
    } catch (e) {
      expect(e).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ field: 'scopes[0]' })] });
    }
    expect(() => guard.canActivate(rpcContext(RpcPatterns.auth.apiKeysList, { data: { page: 1, per_page: 10 } }, 'gateway'))).toThrow(
      expect.objectContaining({ status: 400, errors: [{ field: '$', message: 'must be an RPC message ({ meta, data })' }] }),
    );
  });

  it('refuses (400, logged, counted) a pattern that has no payload schema, whatever its payload: fail closed', async () => {
    const lines: Record<string, unknown>[] = [];
    const metrics = new Registry();
    // Without TLS the allow-list is not consulted, so only the missing schema can refuse it.
    const guard = new RpcCallerGuard('auth', false, pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) }), metrics);
    expect(() => guard.canActivate(rpcContext('auth.users.made-up', { meta: {}, data: {} }, undefined))).toThrow(
      expect.objectContaining({ status: 400, code: 'validation_failed', errors: [{ field: '$', message: 'no payload schema for this pattern' }] }),
    );
    expect(lines).toEqual([expect.objectContaining({ msg: 'rpc call refused', pattern: 'auth.users.made-up', reason: 'invalid_payload' })]);
    expect(await count(metrics, { caller: 'none', pattern: 'unknown', reason: 'invalid_payload' })).toBe(1);
  });

  it('refuses a SQL fragment in every field of the event reads that reaches a query, and lets the same call with valid values through', () => {
    const guard = new RpcCallerGuard('event-ingest', true, pino({ level: 'silent' }), new Registry());
    const sql = "day') OR 1=1--";
    const call = (pattern: string, data: unknown) => () => guard.canActivate(rpcContext(pattern, { meta: {}, data }, 'gateway'));
    const range = { start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z' };
    const valid = { filters: range, metrics: ['count'], group_by: ['type'], bucket: 'day', limit: 100 };
    expect(call(RpcPatterns.events.aggregate, valid)()).toBe(true);
    for (const [field, value] of Object.entries({ metrics: [sql], group_by: [sql], bucket: sql, limit: sql })) {
      expect(call(RpcPatterns.events.aggregate, { ...valid, [field]: value })).toThrow(expect.objectContaining({ status: 400, errors: expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining(field) })]) }));
    }
    for (const field of ['types', 'severities', 'database_ids', 'source_ips', 'operations']) {
      expect(call(RpcPatterns.events.aggregate, { ...valid, filters: { ...range, [field]: [sql] } })).toThrow(expect.objectContaining({ status: 400 }));
    }
    expect(call(RpcPatterns.events.aggregate, { ...valid, filters: { ...range, start: sql } })).toThrow(expect.objectContaining({ status: 400 }));
    expect(call(RpcPatterns.events.aggregate, { ...valid, filters: { ...range, [sql]: 1 } })).toThrow(expect.objectContaining({ status: 400 }));
    expect(call(RpcPatterns.events.list, { filters: {}, page: 1, limit: 10, cursor: sql })).toThrow(expect.objectContaining({ status: 400 }));
    expect(call(RpcPatterns.events.replay, { after_seq: '1 OR 1=1', filters: {}, limit: 10 })).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('without TLS (RPC_INSECURE) checks payloads only', () => {
    const guard = new RpcCallerGuard('auth', false, pino({ level: 'silent' }), new Registry());
    expect(guard.canActivate(rpcContext(RpcPatterns.auth.apiKeysCreate, { meta: {}, data: key }, undefined))).toBe(true);
    expect(() => guard.canActivate(rpcContext(RpcPatterns.auth.apiKeysList, { meta: {}, data: { page: 0, per_page: 10 } }, undefined))).toThrow(DomainException);
  });
});
