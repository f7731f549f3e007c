import { RpcPatterns } from './patterns';

/**
 * Who may call what over RPC: for each receiving service, the callers it accepts (by the identity in
 * their client certificate, docs/architecture.md#internal-calls) and the patterns each may call,
 * exactly those the caller's code uses. Everything else is refused before a handler runs.
 *
 * pg-proxy and event-ingest enforce policies, so they may read the policy snapshots and the keys
 * that sign them, and nothing else; event-ingest's reports read alert figures from delivery. Every
 * other pattern is the gateway's (the public API's back end).
 */
export type RpcIdentity = 'gateway' | 'auth' | 'policy' | 'event-ingest' | 'delivery' | 'pg-proxy';

const all = <G extends Record<string, string>>(group: G, except: readonly string[] = []) =>
  Object.values(group).filter((pattern) => !except.includes(pattern));

const POLICY_READERS = [RpcPatterns.policies.snapshots, RpcPatterns.policies.signingKeys];

export const RpcAllowList: Record<'auth' | 'policy' | 'event-ingest' | 'delivery', Partial<Record<RpcIdentity, readonly string[]>>> = {
  auth: { gateway: all(RpcPatterns.auth) },
  policy: {
    gateway: all(RpcPatterns.policies, POLICY_READERS),
    'event-ingest': POLICY_READERS,
    'pg-proxy': POLICY_READERS,
  },
  'event-ingest': {
    gateway: [...all(RpcPatterns.events), ...all(RpcPatterns.integrity), ...all(RpcPatterns.databases), ...all(RpcPatterns.reports)],
  },
  delivery: {
    gateway: [...all(RpcPatterns.webhooks), ...all(RpcPatterns.alerts, [RpcPatterns.alerts.report]), ...all(RpcPatterns.alertDestinations)],
    'event-ingest': [RpcPatterns.alerts.report],
  },
};

export type RpcRefusalReason = 'unauthenticated' | 'unknown_caller' | 'pattern_not_allowed';

/**
 * Whether `caller` may call `pattern` on `receiver`: an exact match in the allow-list (no
 * wildcards, so a pattern added later is refused until someone decides who may call it).
 */
export function rpcCallAllowed(
  receiver: string,
  caller: string | undefined,
  pattern: string,
  allowList: Record<string, Partial<Record<string, readonly string[]>>> = RpcAllowList,
): { ok: true } | { ok: false; reason: RpcRefusalReason } {
  if (!caller) return { ok: false, reason: 'unauthenticated' };
  const callers = allowList[receiver];
  const patterns = callers && Object.hasOwn(callers, caller) ? callers[caller] : undefined;
  if (!patterns) return { ok: false, reason: 'unknown_caller' };
  return patterns.includes(pattern) ? { ok: true } : { ok: false, reason: 'pattern_not_allowed' };
}
