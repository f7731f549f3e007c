import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promqlSelectors } from './validate-monitoring.mjs';

const REPO = resolve(__dirname, '..');
const NODE = process.execPath;

/**
 * The checker runs on a copy of deploy/monitoring and docs/operations.md (metrics always come from
 * this checkout's code); each case breaks the copy one way and expects the check to fail saying why.
 */
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-monitoring-'));
  for (const path of ['deploy/monitoring', 'docs/operations.md']) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    cpSync(join(REPO, path), join(dir, path), { recursive: true });
  }
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function edit(path: string, change: (text: string) => string) {
  const file = join(dir, path);
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(file, after);
}

function validate() {
  const r = spawnSync(NODE, [join(REPO, 'tools/validate-monitoring.mjs'), '--dir', dir], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: 'true' } });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

// Each case starts the checker (TypeScript's parser over the sources, promtool runs): seconds on a
// busy machine.
jest.setTimeout(120_000);

const RULES = 'deploy/monitoring/prometheus/vigil-rules.yaml';
const DASHBOARD = 'deploy/monitoring/grafana/vigil-dashboard.json';

it('passes on the files as committed', () => {
  const { status, output } = validate();
  expect(output).toContain('validate-monitoring: passed');
  expect(status).toBe(0);
});

it('fails when a rule names a metric the code does not register (a renamed metric)', () => {
  edit(RULES, (t) => t.replace('max by (namespace, service, schema) (vigil_outbox_oldest_age_seconds) > 60', 'max by (namespace, service, schema) (vigil_outbox_oldest_seconds) > 60'));
  const { status, output } = validate();
  expect(status).toBe(1);
  expect(output).toMatch(/VigilOutboxStuck: metric vigil_outbox_oldest_seconds is not registered by the code/);
});

it('fails when a dashboard query filters on a label the metric does not have', () => {
  edit(DASHBOARD, (t) => t.replace('vigil_webhook_attempts_total{namespace=~\\"$namespace\\", job=~\\"$job\\", service=~\\"$service\\"}', 'vigil_webhook_attempts_total{namespace=~\\"$namespace\\", job=~\\"$job\\", service=~\\"$service\\", endpoint_id=\\"x\\"}'));
  const { status, output } = validate();
  expect(status).toBe(1);
  expect(output).toMatch(/vigil_webhook_attempts_total has no label "endpoint_id"/);
});

it('fails when an alert groups by a label its metric does not have', () => {
  edit(RULES, (t) => t.replace('max by (namespace, service, schema) (vigil_outbox_oldest_age_seconds)', 'max by (namespace, service, outbox) (vigil_outbox_oldest_age_seconds)'));
  const { status, output } = validate();
  expect(status).toBe(1);
  expect(output).toMatch(/VigilOutboxStuck: groups by "outbox", a label none of its metrics has/);
});

it('fails when a rule does not parse (promtool check rules)', () => {
  edit(RULES, (t) => t.replace('expr: vigil_ready == 0', 'expr: vigil_ready == == 0'));
  const { status, output } = validate();
  expect(status).toBe(1);
  expect(output).toMatch(/promtool check rules failed/);
});

it('fails when a rule no longer behaves as its unit tests expect (promtool test rules)', () => {
  // The outbox threshold raised tenfold: the test expecting the alert at 4.5 minutes fails.
  edit(RULES, (t) => t.replace('(vigil_outbox_oldest_age_seconds) > 60', '(vigil_outbox_oldest_age_seconds) > 600'));
  const { status, output } = validate();
  expect(status).toBe(1);
  expect(output).toMatch(/promtool test rules failed/);
  expect(output).toMatch(/VigilOutboxStuck/);
  // The PrometheusRule object was not regenerated either.
  expect(output).toMatch(/prometheus-rule\.yaml: its groups differ/);
});

it('fails when an alert has no runbook entry in docs/operations.md', () => {
  edit('docs/operations.md', (t) => t.replace('#### VigilDeadLetters\n', ''));
  const { status, output } = validate();
  expect(status).toBe(1);
  expect(output).toMatch(/VigilDeadLetters: runbook_url anchor #vigildeadletters is not a heading of docs\/operations\.md/);
});

it('fails when a metric the docs recommend alerting on has no alert', () => {
  edit('docs/operations.md', (t) => t.replace('| `up`, `vigil_ready` |', '| `vigil_proxy_sessions` | too many | the proxy is full | none |\n| `up`, `vigil_ready` |'));
  const { status, output } = validate();
  expect(status).toBe(1);
  expect(output).toMatch(/no alert in deploy\/monitoring\/prometheus\/vigil-rules\.yaml uses vigil_proxy_sessions/);
});

describe('promqlSelectors', () => {
  it('finds metric names and label matchers, not functions, keywords, grouping labels or durations', () => {
    const { selectors, groupingLabels } = promqlSelectors(
      'sum by (namespace, le) (rate(vigil_http_request_duration_seconds_bucket{method="GET", route!~"/health/.*"}[5m])) ' +
        '/ on (namespace) group_left() sum without (instance) (vigil_ready offset 10m) > bool 1 and absent(up{job="vigil"})',
    );
    expect(selectors).toEqual([
      {
        name: 'vigil_http_request_duration_seconds_bucket',
        matchers: [
          { label: 'method', op: '=', value: 'GET' },
          { label: 'route', op: '!~', value: '/health/.*' },
        ],
      },
      { name: 'vigil_ready', matchers: [] },
      { name: 'up', matchers: [{ label: 'job', op: '=', value: 'vigil' }] },
    ]);
    expect(groupingLabels).toEqual(['namespace', 'le', 'namespace', 'instance']);
  });
});
