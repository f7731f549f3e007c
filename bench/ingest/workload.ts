/**
 * What bench/ingest ingests and enforces: audit records of 20 databases with a few percent out of
 * the ordinary, and a set of 24 enabled policies of the four types spread over those databases, as
 * a security team would configure them. Pure functions of the record index and a start time, so
 * both configurations of a run ingest the same records and the benchmark can compute, with the
 * policy engine, what enforcement must produce.
 */

export const DATABASES = 20;
const db = (n: number) => `db_bench_${n % DATABASES}`;
/** `count` consecutive databases from `first` (wrapping). */
const span = (first: number, count: number) => Array.from({ length: count }, (_, j) => db(first + j));

export interface BenchRecord {
  id?: string;
  type: string;
  database_id: string;
  timestamp: string;
  details: {
    user: string;
    source_ip: string;
    query?: string;
    session_id: string;
    client_application: string;
    classifications?: string[];
  };
}

/** Out-of-the-ordinary record kinds, each a realistic thing a policy exists for. */
type Kind =
  | 'ordinary'
  | 'login'
  | 'outside_login'
  | 'login_failed'
  | 'drop'
  | 'truncate'
  | 'unbounded_delete'
  | 'union_probe'
  | 'sleep_probe'
  | 'server_file'
  | 'grant'
  | 'customer_contact'
  | 'card_read'
  | 'national_id'
  | 'health_record'
  | 'outside_ip'
  | 'after_hours'
  | 'dba_drop'
  | 'bulk_export';

/** Per mille of records of each kind (the rest is ordinary traffic): about 6 % are unusual. */
const MIX: [Kind, number][] = [
  ['login', 90],
  ['outside_login', 3],
  ['login_failed', 10],
  ['drop', 3],
  ['truncate', 2],
  ['unbounded_delete', 3],
  ['union_probe', 3],
  ['sleep_probe', 1],
  ['server_file', 1],
  ['grant', 2],
  ['customer_contact', 12],
  ['card_read', 5],
  ['national_id', 3],
  ['health_record', 2],
  ['outside_ip', 5],
  ['after_hours', 5],
  ['dba_drop', 2],
  ['bulk_export', 1],
];
const KIND_BY_MILLE: Kind[] = [];
for (const [kind, share] of MIX) for (let k = 0; k < share; k++) KIND_BY_MILLE.push(kind);
while (KIND_BY_MILLE.length < 1000) KIND_BY_MILLE.push('ordinary');

const ORDINARY_QUERIES = [
  "SELECT o.id, o.status, o.total FROM orders o WHERE o.customer_id = $1 ORDER BY o.created_at DESC LIMIT 10",
  'UPDATE accounts SET balance = balance - 25.00 WHERE id = $1 AND version = $2',
  'INSERT INTO audit_log (actor, action, at) VALUES ($1, $2, now())',
  'SELECT count(*) FROM sessions WHERE expires_at < now()',
  "DELETE FROM carts WHERE updated_at < now() - interval '30 days'",
  "SELECT id, name, price FROM products WHERE name ILIKE '%lamp%' ORDER BY price LIMIT 20",
  "BEGIN; SELECT pg_advisory_xact_lock(7); UPDATE jobs SET state = 'running' WHERE id = $1; COMMIT;",
  'SELECT i.id, i.amount, i.due_at FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.customer_id = $1',
];
const USERS = ['app', 'app', 'app', 'web', 'web', 'etl', 'reporting', 'app'];
const INTERNAL_IPS = ['10.0.1.15', '10.0.2.20', '10.4.5.4', '192.168.10.7', '2001:db8:100::17'];
const OUTSIDE_IPS = ['203.0.113.9', '198.51.100.23'];
const APPLICATIONS = ['orders-api', 'orders-api', 'billing-service', 'nightly-etl', 'reporting-ui'];

/** A fast integer hash of the index, so kinds and databases do not follow each other's period. */
function mix(i: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export interface Clock {
  /** Event time of record 0 (ms). */
  start: number;
  /** Event time between consecutive records (ms). */
  step: number;
}

/** A clock for `events` records ending about now: at most an hour of event time, inside today or yesterday. */
export function benchClock(events: number, now = Date.now()): Clock {
  const step = Math.min(4, 3_600_000 / Math.max(1, events));
  return { start: now - 15 * 60_000 - events * step, step };
}

/** Hours before the run of an after-hours access: outside the access window (see accessWindow). */
const AFTER_HOURS_MS = 8 * 3_600_000;

function make(kind: Kind, i: number, database: string, at: number, h: number): BenchRecord {
  const user = USERS[(h >>> 4) % USERS.length]!;
  const details: BenchRecord['details'] = {
    user,
    source_ip: INTERNAL_IPS[(h >>> 7) % INTERNAL_IPS.length]!,
    session_id: `sess_${i % 400}`,
    client_application: APPLICATIONS[(h >>> 11) % APPLICATIONS.length]!,
  };
  const query = (q: string) => ({ type: 'database.query', database_id: database, timestamp: new Date(at).toISOString(), details: { ...details, query: q } });
  const login = (type: string, extra: Partial<BenchRecord['details']> = {}) => ({
    type,
    database_id: database,
    timestamp: new Date(at).toISOString(),
    details: { ...details, ...extra },
  });
  switch (kind) {
    case 'ordinary':
      return query(ORDINARY_QUERIES[(h >>> 14) % ORDINARY_QUERIES.length]!.replace('$1', String(i)));
    case 'login':
      return login('user.login_success');
    case 'outside_login':
      return login('user.login_success', { source_ip: OUTSIDE_IPS[i % 2]! });
    case 'login_failed':
      return login('user.login_failed', { user: ['app', 'mallory', 'etl'][(h >>> 4) % 3]! });
    case 'drop':
      return query(`DROP TABLE tmp_import_${i % 97}`);
    case 'truncate':
      return query('TRUNCATE TABLE sessions');
    case 'unbounded_delete':
      return query('DELETE FROM carts');
    case 'union_probe':
      return query(`SELECT u.id FROM users u WHERE u.email = 'x${i}@example.com' UNION SELECT id FROM admins`);
    case 'sleep_probe':
      return query(`SELECT * FROM products WHERE id = ${i} AND 1=(SELECT 1 FROM pg_sleep(5))`);
    case 'server_file':
      return query("SELECT pg_read_file('/etc/passwd')");
    case 'grant':
      return query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO reporting');
    case 'customer_contact':
      return query(`SELECT c.id, c.name, c.email, c.phone FROM customers c WHERE c.id = ${i}`);
    case 'card_read':
      return query(`SELECT p.card_number, p.amount FROM payments p WHERE p.merchant_id = ${i % 500}`);
    case 'national_id':
      return query(`SELECT e.id, e.ssn FROM employees e WHERE e.department_id = ${i % 40}`);
    case 'health_record': {
      const r = query(`SELECT p.id, p.diagnosis FROM patients p WHERE p.id = ${i}`);
      return { ...r, details: { ...r.details, classifications: ['phi'] } };
    }
    case 'outside_ip': {
      const r = query(ORDINARY_QUERIES[0]!.replace('$1', String(i)));
      return { ...r, details: { ...r.details, user: 'app', source_ip: OUTSIDE_IPS[i % 2]! } };
    }
    case 'after_hours': {
      const r = query(`SELECT * FROM orders WHERE created_at > now() - interval '1 day'`);
      return { ...r, timestamp: new Date(at - AFTER_HOURS_MS).toISOString(), details: { ...r.details, user: i % 2 ? 'etl' : 'reporting' } };
    }
    case 'bulk_export':
      return query('COPY customers TO STDOUT WITH CSV HEADER');
    case 'dba_drop': {
      const r = query(`DROP TABLE tmp_import_${i % 97}`);
      return { ...r, details: { ...r.details, user: 'dba', client_application: 'psql' } };
    }
  }
}

/** Record `i` of the run; `producerIds` adds an idempotency key. */
export function benchRecord(i: number, clock: Clock, producerIds = false): BenchRecord {
  const h = mix(i);
  const record = make(KIND_BY_MILLE[h % 1000]!, i, db(h >>> 20), clock.start + i * clock.step, h);
  return producerIds ? { id: `bench-${i}`, ...record } : record;
}

export interface PolicySpec {
  name: string;
  type: 'query_control' | 'access_control' | 'data_protection' | 'alerting';
  description: string;
  databases: string[];
  config: unknown;
  /** Records that trigger this policy on its first database (published to prove it is in force). */
  probe: (tag: string, now: number) => BenchRecord[];
}

/** The access window: six hours either side of the run's start (UTC), so ordinary records are inside it. */
function accessWindow(now: number) {
  const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
  return { start: hhmm(now - 6 * 3_600_000), end: hhmm(now + 6 * 3_600_000), timezone: 'UTC' };
}

/** One record of `kind` on `database` at `now`, its user overridden if given. */
function probeRecord(kind: Kind, database: string, now: number, tag: string, user?: string): BenchRecord {
  const r = make(kind, 1, database, now, 0);
  return { ...r, id: tag, details: { ...r.details, ...(user ? { user } : {}), client_application: 'probe' } };
}

/** The 24 enabled policies: 8 query_control, 6 access_control, 6 data_protection, 4 alerting. */
export function benchPolicies(now: number): PolicySpec[] {
  const specs: PolicySpec[] = [];
  const allRules = [
    { name: 'no drops', pattern: '\\bDROP\\s+(TABLE|DATABASE|SCHEMA)\\b', action: 'block', severity: 'critical', message: 'DDL outside the migration pipeline' },
    { name: 'no truncate', pattern: '\\bTRUNCATE\\b', action: 'block', severity: 'critical' },
    { name: 'unbounded delete', pattern: '^\\s*DELETE\\s+FROM\\s+\\w+\\s*;?\\s*$', action: 'alert', severity: 'high', channels: ['secops'] },
    { name: 'union probe', pattern: 'union\\s+(all\\s+)?select', action: 'alert', severity: 'high', channels: ['secops'] },
    { name: 'time-based probe', pattern: 'pg_sleep\\s*\\(|waitfor\\s+delay|benchmark\\s*\\(', action: 'alert', severity: 'medium' },
    { name: 'server files', pattern: '\\b(pg_read_file|pg_ls_dir|lo_export)\\s*\\(|\\bCOPY\\b.+\\bPROGRAM\\b', action: 'block', severity: 'critical' },
    { name: 'privilege changes', pattern: '\\b(GRANT|REVOKE)\\b|\\bALTER\\s+(ROLE|USER)\\b', action: 'log', severity: 'medium' },
  ];
  for (let k = 0; k < 8; k++) {
    // Half the guards carry every rule; the others the destructive ones only.
    const rules = k % 2 === 0 ? allRules : allRules.filter((r) => r.action === 'block' || r.name === 'unbounded delete');
    const databases = span(k * 5, 5);
    specs.push({
      name: `sql guard ${k}`,
      type: 'query_control',
      description: 'Destructive statements, injection probes and server file access',
      databases,
      config: { rules, exceptions: { users: ['dba'], applications: ['migrator'] } },
      probe: (tag, t) => [probeRecord('drop', databases[0]!, t, tag)],
    });
  }
  const governed = ['app', 'web', 'etl', 'reporting'];
  for (let k = 0; k < 3; k++) {
    const databases = span(k * 7, 10);
    specs.push({
      name: `network boundary ${k}`,
      type: 'access_control',
      description: 'Application and batch accounts only from the data centre and the VPN',
      databases,
      config: {
        conditions: { users: governed, allowed_ips: ['10.0.0.0/8', '192.168.10.0/24', '2001:db8:100::/48'] },
        actions: [{ type: 'block' }, { type: 'alert', severity: 'high', channels: ['secops'] }],
      },
      probe: (tag, t) => [probeRecord('outside_ip', databases[0]!, t, tag)],
    });
  }
  for (let k = 0; k < 3; k++) {
    const databases = span(3 + k * 6, 8);
    specs.push({
      name: `batch window ${k}`,
      type: 'access_control',
      description: 'Batch and reporting accounts inside their operating window',
      databases,
      config: {
        conditions: { users: ['etl', 'reporting', 'analyst'], time_window: accessWindow(now), ...(k === 2 ? { allowed_ips: ['10.0.0.0/8', '192.168.10.0/24', '2001:db8:100::/48'] } : {}) },
        actions: [{ type: 'alert', severity: 'medium' }],
      },
      probe: (tag, t) => [probeRecord('after_hours', databases[0]!, t, tag, 'etl')],
    });
  }
  const protections: Omit<PolicySpec, 'databases' | 'name'>[] = [
    {
      type: 'data_protection',
      description: 'Customer contact data masked for everyone but support leads',
      config: { rules: [{ name: 'contact', columns: ['customers.email', 'customers.phone'], method: 'partial', show_last: 4 }], exceptions: { users: ['support_lead'] } },
      probe: (tag, t) => [probeRecord('customer_contact', '', t, tag)],
    },
    {
      type: 'data_protection',
      description: 'Card data: masked, and an alert when read outside billing (the app user through billing-service)',
      config: {
        rules: [{ name: 'cards', columns: ['payments.card_number', '*.cvv'], method: 'partial', show_last: 4 }],
        exceptions: { users: ['app'], applications: ['billing-service'] },
        actions: [{ type: 'alert', severity: 'high', channels: ['secops'] }],
      },
      probe: (tag, t) => [probeRecord('card_read', '', t, tag)],
    },
    {
      type: 'data_protection',
      description: 'National identifiers and PII hashed',
      config: { rules: [{ name: 'national ids', columns: ['*.ssn', '*.tax_id'], classifications: ['pii'], method: 'hash' }] },
      probe: (tag, t) => [probeRecord('national_id', '', t, tag)],
    },
  ];
  for (let k = 0; k < 6; k++) {
    const base = k < 3 ? protections[k]! : k === 5
      ? {
          type: 'data_protection' as const,
          description: 'Health records redacted',
          config: { rules: [{ name: 'phi', columns: ['patients.diagnosis'], classifications: ['phi'], method: 'redact' }], actions: [{ type: 'log' }] },
          probe: (tag: string, t: number) => [probeRecord('health_record', '', t, tag)],
        }
      : protections[k - 3]!;
    const databases = span(k * 4 + 1, 10);
    specs.push({
      ...base,
      name: `data protection ${k}`,
      databases,
      probe: (tag, t) => base.probe(tag, t).map((r) => ({ ...r, database_id: databases[0]! })),
    });
  }
  const everywhere = span(0, DATABASES);
  specs.push(
    {
      name: 'brute force',
      type: 'alerting',
      description: '5 failed logins of one user on one database within 10 minutes',
      databases: everywhere,
      config: {
        conditions: { event_types: ['user.login_failed'], threshold: { count: 5, window_minutes: 10, group_by: ['database_id', 'user'] } },
        alert: { severity: 'high', title: 'Possible brute force' },
      },
      // A user of its own per probe round, so a round's window starts empty.
      probe: (tag, t) => Array.from({ length: 5 }, (_, n) => probeRecord('login_failed', everywhere[0]!, t + n, `${tag}-${n}`, `probe-${tag}`)),
    },
    {
      name: 'login from outside',
      type: 'alerting',
      description: 'A successful login from an address outside the company ranges',
      databases: everywhere,
      config: {
        conditions: { event_types: ['user.login_success'], fields: [{ field: 'source_ip', operator: 'matches', value: '^(203\\.0\\.113|198\\.51\\.100)\\.' }] },
        alert: { severity: 'medium', title: 'Login from outside' },
      },
      probe: (tag, t) => [probeRecord('outside_login', everywhere[0]!, t, tag)],
    },
    {
      name: 'service account failed login',
      type: 'alerting',
      description: 'A service account failing to log in is a misconfiguration or a stolen name',
      databases: span(0, 10),
      config: {
        conditions: { event_types: ['user.login_failed'], users: ['app', 'etl'] },
        alert: { severity: 'low', title: 'Service account login failed' },
      },
      probe: (tag, t) => [probeRecord('login_failed', everywhere[0]!, t, tag, 'etl')],
    },
    {
      name: 'bulk export',
      type: 'alerting',
      description: 'COPY ... TO by anyone but the ETL account',
      databases: span(10, 10),
      config: {
        conditions: { event_types: ['database.*'], fields: [{ field: 'query', operator: 'matches', value: '(?i)\\bCOPY\\b.+\\bTO\\b' }, { field: 'user', operator: 'not_equals', value: 'etl' }] },
        alert: { severity: 'high', title: 'Bulk export' },
      },
      probe: (tag, t) => [probeRecord('bulk_export', db(10), t, tag, 'web')],
    },
  );
  return specs;
}
