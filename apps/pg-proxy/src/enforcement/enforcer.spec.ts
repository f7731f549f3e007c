import type { PolicySnapshot } from '@vigil/contracts';
import { PolicyStore } from '../policies/policy-store';
import { Enforcer, type SessionIdentity, ShapeDecisions } from './enforcer';

const DB = 'db_bench';
const now = new Date().toISOString();
let n = 0;
function snapshot(type: PolicySnapshot['type'], config: unknown, extra: Partial<PolicySnapshot> = {}): PolicySnapshot {
  n++;
  return { id: `pol_${n}`, name: `policy ${n}`, description: '', type, enabled: true, databases: [DB], config, version: 1, created_at: now, updated_at: now, deleted: false, ...extra } as PolicySnapshot;
}

const who: SessionIdentity = { databaseId: DB, user: 'app', sourceIp: '10.0.0.7', application: 'pgbench', sessionId: 'sess_1' };

/** Statements with numbers in many contexts; `#` is replaced by random numbers. */
const TEMPLATES = [
  'SELECT abalance FROM pgbench_accounts WHERE aid = #;',
  'UPDATE pgbench_accounts SET abalance = abalance + # WHERE aid = #;',
  'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (#, #, #, -#, CURRENT_TIMESTAMP);',
  'select * from secret_# where id = #',
  'drop table secret_#',
  'DROP TABLE secret_1',
  'select * from t union select a from admins_# where x = #',
  'truncate audit_#',
  'select ssn_#, "ssn_#" from customers limit #',
  "select 'x #', #.#e# from t#",
  'select # # #',
  'select * from t where a = # and b = 12',
  'select * from t where b = #',
  'select * from t where b = 1#',
];

function statements(count: number, seed = 7): string[] {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff), state);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const template = TEMPLATES[random() % TEMPLATES.length]!;
    out.push(template.replace(/#/g, () => String(random() % [1, 10, 100, 100000][random() % 4]!)));
  }
  return out;
}

describe('Enforcer.evaluateQuery (decisions by query shape)', () => {
  const store = new PolicyStore();
  for (let i = 0; i < 3; i++) {
    store.apply(
      snapshot('query_control', {
        rules: [
          { name: 'drop', pattern: `^\\s*drop\\s+table\\s+secret_${i}`, action: 'block' },
          { name: 'union probe', pattern: `union\\s+select.*from\\s+admins_${i}`, action: 'block' },
          { name: 'truncate', pattern: `^truncate\\s+audit_${i}`, action: 'alert', severity: 'high' },
          { name: 'number', pattern: `where b = 12\\b`, action: 'alert' },
        ],
      }),
    );
  }
  store.apply(snapshot('access_control', { conditions: { allowed_ips: ['10.0.0.0/8'] }, actions: [{ type: 'block' }] }));
  store.apply(snapshot('data_protection', { rules: [{ name: 'ssn', columns: ['*.ssn_1', 'pgbench_accounts.filler'], method: 'redact' }] }));
  const enforcer = new Enforcer(store);

  it('gives every statement the decision a fresh evaluation gives, and shares it for pgbench statements', () => {
    const cache = new ShapeDecisions();
    // The number the 'number' rule watches, after a text of its shape was decided without it.
    for (const text of ['select * from t where b = 5', 'select * from t where b = 12', ...statements(3000)]) {
      const kept = enforcer.evaluateQuery(who, text, cache);
      const fresh = enforcer.evaluate(who, 'database.query', text);
      if (JSON.stringify(kept) !== JSON.stringify(fresh)) throw new Error(`the decision kept for ${JSON.stringify(text)} differs from a fresh evaluation`);
    }
    expect(cache.hits).toBeGreaterThan(1000);
    expect(cache.byShape.size).toBeLessThanOrEqual(64);
    // pgbench's statements share one decision per shape.
    expect(enforcer.evaluateQuery(who, 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;', cache)).toBe(
      enforcer.evaluateQuery(who, 'SELECT abalance FROM pgbench_accounts WHERE aid = 99999;', cache),
    );
  });

  it('blocks drop table secret_1 each time, and never shares a decision across a policy change', () => {
    const cache = new ShapeDecisions();
    expect(enforcer.evaluateQuery(who, 'drop table secret_1', cache).block).toBeDefined();
    expect(enforcer.evaluateQuery(who, 'drop table secret_1', cache).block).toBeDefined();
    expect(enforcer.evaluateQuery(who, 'drop table secret_7', cache).block).toBeUndefined();
    const clean = 'select * from t where id = 5';
    expect(enforcer.evaluateQuery(who, clean, cache).block).toBeUndefined();
    const blocking = snapshot('query_control', { rules: [{ name: 'id', pattern: 'id = 6', action: 'block' }] });
    store.apply(blocking);
    try {
      // Same shape as the statement kept above, but the new policy reads the number.
      expect(enforcer.evaluateQuery(who, 'select * from t where id = 6', cache).block?.policyId).toBe(blocking.id);
      expect(enforcer.evaluateQuery(who, clean, cache).block).toBeUndefined();
      expect(enforcer.evaluateQuery(who, 'select * from t where id = 6', cache).block?.policyId).toBe(blocking.id);
    } finally {
      store.apply({ ...blocking, version: 2, enabled: false });
    }
    expect(enforcer.evaluateQuery(who, 'select * from t where id = 6', cache).block).toBeUndefined();
  });
});
