import type { PolicyStore } from '../../apps/pg-proxy/src/policies/policy-store';

/**
 * The benchmark's policy set, applied to `store` for database `db`: 20 enabled policies, as a
 * protected database might carry them: 10 query_control with 3 rules each, 5 access_control and
 * 5 data_protection (one of whose rules masks a column pgbench reads). Every proxy benchmark uses
 * this one set, so their figures compare.
 */
export function applyBenchPolicies(store: PolicyStore, db: string): void {
  const now = new Date().toISOString();
  const base = { enabled: true, description: '', version: 1, created_at: now, updated_at: now, deleted: false, databases: [db] };
  let n = 0;
  const id = () => `pol_bench${++n}`;
  for (let i = 0; i < 10; i++) {
    store.apply({ ...base, id: id(), name: `query rules ${i}`, type: 'query_control', config: { rules: [
      { name: 'drop', pattern: `^\\s*drop\\s+table\\s+secret_${i}`, action: 'block' },
      { name: 'union probe', pattern: `union\\s+select.*from\\s+admins_${i}`, action: 'block' },
      { name: 'truncate', pattern: `^truncate\\s+audit_${i}`, action: 'alert', severity: 'high' },
    ] } });
  }
  for (let i = 0; i < 5; i++) {
    store.apply({ ...base, id: id(), name: `access ${i}`, type: 'access_control', config: { conditions: { allowed_ips: ['127.0.0.0/8', '10.0.0.0/8'] }, actions: [{ type: 'block' }] } });
  }
  for (let i = 0; i < 5; i++) {
    store.apply({ ...base, id: id(), name: `protection ${i}`, type: 'data_protection', config: { rules: [
      { name: 'ssn', columns: [`*.ssn_${i}`], method: 'redact' },
      { name: 'filler', columns: ['pgbench_accounts.filler'], method: 'partial', show_last: 2 },
    ] } });
  }
}
