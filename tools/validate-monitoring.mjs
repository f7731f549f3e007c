#!/usr/bin/env node
/**
 * Checks of the operators' monitoring kit (deploy/monitoring), run by `npm run validate:deploy`
 * and usable alone: `node tools/validate-monitoring.mjs [--dir <copy of the repository>]`.
 *
 *  - the metrics the code registers are read from the sources (every `new Counter|Gauge|Histogram|
 *    Summary({ name: '...' })` under apps/ and libs/, with its labelNames) plus prom-client's
 *    default process and Node.js metrics, taken from prom-client itself;
 *  - prometheus/vigil-rules.yaml: `promtool check rules` and `promtool test rules` (a unit test
 *    expecting each alert to fire), every alert with a severity, a summary, a description and a
 *    runbook_url whose anchor exists in the docs;
 *  - every metric and label matcher in the rules and in grafana/vigil-dashboard.json names a
 *    metric the code registers (or one Prometheus adds, `up`) and a label that metric has, so a
 *    renamed metric or label fails here rather than in an operator's silent dashboard;
 *  - the dashboard's queries parse (promtool, with the Grafana variables filled in), use the
 *    DS_PROMETHEUS data source variable and the namespace/job/service variables;
 *  - every metric of docs/operations.md's "Metrics worth alerting on" table is used by an alert;
 *  - prometheus-rule.yaml (the PrometheusRule object) carries exactly the rules file's groups.
 *
 * Code metrics always come from this checkout; --dir points the monitoring files and docs at a
 * copy (the tests break a copy and expect a failure).
 * promtool: VIGIL_PROMTOOL, else `promtool` on PATH. Missing promtool fails when CI is set, and is
 * a loud warning otherwise.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const YAML = require('yaml');
const ts = require('typescript');

export const MONITORING_FILES = {
  rules: 'deploy/monitoring/prometheus/vigil-rules.yaml',
  rulesTest: 'deploy/monitoring/prometheus/vigil-rules.test.yaml',
  prometheusRule: 'deploy/monitoring/prometheus-rule.yaml',
  dashboard: 'deploy/monitoring/grafana/vigil-dashboard.json',
  operations: 'docs/operations.md',
};

/** The job name the ServiceMonitor gives Vigil's targets and the rules select on. */
export const VIGIL_JOB = 'vigil';

/** Labels Prometheus (and the Prometheus Operator) put on every scraped series. */
const TARGET_LABELS = ['job', 'instance', 'namespace', 'pod', 'container', 'endpoint', 'exported_service'];
/** Every Vigil registry sets this default label. */
const DEFAULT_LABELS = ['service'];
/** Series Prometheus itself makes, with their labels. */
const PROMETHEUS_SERIES = { up: { type: 'gauge', labels: ['service'] } };

// ------------------------------------------------------------------------ metrics in the code --

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (entry.endsWith('.ts') && !/\.(spec|int-spec|kafka-spec|sasl-spec)\.ts$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// ChunkHistogram: pg-proxy's allocation-free histogram, constructed with prom-client's options.
const METRIC_CLASSES = { Counter: 'counter', Gauge: 'gauge', Histogram: 'histogram', Summary: 'summary', ChunkHistogram: 'histogram' };

/**
 * Metrics the services register, read from the sources without running them. Returns the metrics
 * (name -> { type, labels, where }) and what could not be read statically.
 */
export function codeMetrics(root = REPO) {
  const metrics = new Map();
  const unreadable = [];
  const files = ['apps', 'libs'].filter((d) => existsSync(join(root, d))).flatMap((d) => sourceFiles(join(root, d)));
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    if (!/new (Counter|Gauge|Histogram|Summary|ChunkHistogram)\b/.test(text)) continue;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
    const visit = (node) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && METRIC_CLASSES[node.expression.text]) {
        const where = `${relative(root, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const options = node.arguments?.[0];
        const prop = (name) =>
          options && ts.isObjectLiteralExpression(options)
            ? options.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(source) === name)?.initializer
            : undefined;
        const name = prop('name');
        if (!name || !ts.isStringLiteralLike(name)) {
          unreadable.push(`${where}: a ${node.expression.text} whose name is not a string literal`);
        } else {
          const labelNames = prop('labelNames');
          let labels;
          if (!labelNames) labels = [];
          else if (ts.isArrayLiteralExpression(labelNames) && labelNames.elements.every(ts.isStringLiteralLike)) labels = labelNames.elements.map((e) => e.text);
          else unreadable.push(`${where}: ${name.text} has labelNames that are not a literal list`);
          metrics.set(name.text, { type: METRIC_CLASSES[node.expression.text], labels: labels ?? null, where });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { metrics, unreadable };
}

/** prom-client's default metrics (collectDefaultMetrics), as the installed version makes them. */
export function defaultMetrics() {
  const { Registry, collectDefaultMetrics } = require('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = new Map();
  for (const metric of registry.getMetricsAsArray()) {
    metrics.set(metric.name, { type: metric.type ?? metric.constructor.name.toLowerCase(), labels: [...(metric.labelNames ?? [])], where: 'prom-client collectDefaultMetrics' });
  }
  return metrics;
}

/** Series names a metric exposes (a histogram's _bucket, _sum, _count) with the labels of each. */
export function seriesCatalogue(metrics) {
  const series = new Map();
  for (const [name, m] of metrics) {
    const labels = m.labels === null ? null : new Set([...m.labels, ...DEFAULT_LABELS, ...TARGET_LABELS]);
    const add = (n, extra = []) => series.set(n, { metric: name, labels: labels && new Set([...labels, ...extra]) });
    if (m.type === 'histogram') {
      add(`${name}_bucket`, ['le']);
      add(`${name}_sum`);
      add(`${name}_count`);
    } else if (m.type === 'summary') {
      add(name, ['quantile']);
      add(`${name}_sum`);
      add(`${name}_count`);
    } else add(name);
  }
  for (const [name, m] of Object.entries(PROMETHEUS_SERIES)) series.set(name, { metric: name, labels: new Set([...m.labels, ...TARGET_LABELS]) });
  return series;
}

// ------------------------------------------------------------------------------------ PromQL --

const AGGREGATIONS = new Set(['sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile', 'limitk', 'limit_ratio']);
const LABEL_LIST_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan', 'start', 'end']);

/**
 * The vector selectors of a PromQL expression: [{ name, matchers: [{ label, op, value }] }], plus
 * the labels named in by/without/on/ignoring/group_* clauses. A tokenizer, not a full parser:
 * enough to find every metric name and label an expression depends on (promtool checks syntax).
 */
export function promqlSelectors(expr) {
  const selectors = [];
  const groupingLabels = [];
  let i = 0;
  const n = expr.length;
  const skipSpace = () => {
    while (i < n && /\s/.test(expr[i])) i++;
    if (expr[i] === '#') {
      while (i < n && expr[i] !== '\n') i++;
      skipSpace();
    }
  };
  const readString = () => {
    const quote = expr[i++];
    let value = '';
    while (i < n && expr[i] !== quote) {
      if (expr[i] === '\\' && quote !== '`') value += expr[i++];
      value += expr[i++];
    }
    i++;
    return value;
  };
  const readMatchers = () => {
    i++; // {
    const matchers = [];
    for (;;) {
      skipSpace();
      if (i >= n || expr[i] === '}') break;
      if (expr[i] === ',') {
        i++;
        continue;
      }
      let label;
      if (expr[i] === '"' || expr[i] === "'") label = readString();
      else {
        const m = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(expr.slice(i));
        if (!m) throw new Error(`cannot read a label matcher at "${expr.slice(i, i + 20)}"`);
        label = m[0];
        i += label.length;
      }
      skipSpace();
      const op = /^(=~|!~|!=|=)/.exec(expr.slice(i))?.[0];
      if (!op) {
        // A bare quoted name ({"metric.name"}) is the metric's name.
        matchers.push({ label: '__name__', op: '=', value: label });
        continue;
      }
      i += op.length;
      skipSpace();
      const value = readString();
      matchers.push({ label, op, value });
    }
    i++; // }
    return matchers;
  };
  const peek = () => {
    const save = i;
    skipSpace();
    const c = expr[i];
    i = save;
    return c;
  };
  while (i < n) {
    skipSpace();
    if (i >= n) break;
    const c = expr[i];
    if (c === '"' || c === "'" || c === '`') {
      readString();
    } else if (c === '[') {
      let depth = 0;
      do {
        if (expr[i] === '[') depth++;
        else if (expr[i] === ']') depth--;
        i++;
      } while (i < n && depth > 0);
    } else if (c === '{') {
      const matchers = readMatchers();
      const name = matchers.find((m) => m.label === '__name__' && m.op === '=')?.value;
      selectors.push({ name, matchers: matchers.filter((m) => m.label !== '__name__') });
    } else if (/[0-9.]/.test(c)) {
      const m = /^(0x[0-9a-fA-F]+|[0-9.]+(e[+-]?[0-9]+)?([a-zA-Z0-9.]*)?)/.exec(expr.slice(i));
      i += m ? m[0].length : 1;
    } else if (/[a-zA-Z_:]/.test(c)) {
      const word = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(expr.slice(i))[0];
      i += word.length;
      const next = peek();
      if (LABEL_LIST_KEYWORDS.has(word) && next === '(') {
        skipSpace();
        const close = expr.indexOf(')', i);
        groupingLabels.push(...expr.slice(i + 1, close).split(',').map((s) => s.trim()).filter(Boolean));
        i = close + 1;
      } else if (KEYWORDS.has(word.toLowerCase()) || LABEL_LIST_KEYWORDS.has(word)) {
        // an operator or modifier
      } else if (next === '(' || (AGGREGATIONS.has(word) && /^(by|without)\b/.test(expr.slice(i).trimStart()))) {
        // a function or an aggregation
      } else {
        skipSpace();
        const matchers = expr[i] === '{' ? readMatchers() : [];
        selectors.push({ name: word, matchers });
      }
    } else i++;
  }
  return { selectors, groupingLabels };
}

/** Grafana's variables, replaced by values that keep the query valid PromQL. */
export function fillGrafanaVariables(expr) {
  return expr
    .replace(/\$__(rate_interval|interval|range)\b/g, '5m')
    .replace(/\$\{?(namespace|job|service|instance)\}?/g, '.*')
    .replace(/\$\{?__range_s\}?/g, '300');
}

// ------------------------------------------------------------------------------------ checks --

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchors(markdown) {
  const anchors = new Set();
  for (const line of markdown.split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    let base = m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let slug = base;
    for (let k = 1; anchors.has(slug); k++) slug = `${base}-${k}`;
    anchors.add(slug);
  }
  return anchors;
}

function findPromtool() {
  const candidates = [process.env.VIGIL_PROMTOOL, 'promtool'].filter(Boolean);
  for (const cmd of candidates) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (!r.error && r.status === 0) return { cmd, version: (r.stdout || r.stderr).split('\n')[0].trim() };
  }
  return undefined;
}

/** JSON with object keys sorted: equal for equal data whatever the key order (kustomize sorts). */
export function canonical(value) {
  const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);
  return JSON.stringify(sortKeys(value));
}

/** Alert rules of a rules file's groups: [{ group, rule }]. */
const alertRules = (groups) => (groups ?? []).flatMap((g) => (g.rules ?? []).map((rule) => ({ group: g.name, rule })));

/**
 * Runs every check; `report` is { check(condition, where, message), warn(where, message),
 * note(message) } (validate-deploy's reporting). `dir` holds the monitoring files and docs.
 */
export function checkMonitoring(report, { dir = REPO } = {}) {
  const { check, warn, note } = report;
  const at = (key) => join(dir, MONITORING_FILES[key]);
  const rel = (key) => MONITORING_FILES[key];
  for (const key of Object.keys(MONITORING_FILES)) check(existsSync(at(key)), rel(key), 'missing');
  if (!Object.keys(MONITORING_FILES).every((key) => existsSync(at(key)))) return;

  // What the code registers.
  const code = codeMetrics(REPO);
  for (const u of code.unreadable) check(false, u, 'metrics must be declared with literal names and labelNames so the monitoring files can be checked against them');
  check(code.metrics.size > 0, 'apps/, libs/', 'no metric found in the code');
  const metrics = new Map([...defaultMetrics(), ...code.metrics]);
  const series = seriesCatalogue(metrics);

  /** Checks one expression's metric names and label matchers. Returns the metric names it uses. */
  const used = new Set();
  const checkExpr = (where, expr) => {
    let parsed;
    try {
      parsed = promqlSelectors(expr);
    } catch (error) {
      check(false, where, `cannot read the expression: ${error.message}`);
      return;
    }
    for (const sel of parsed.selectors) {
      if (!check(sel.name, where, 'a selector without a metric name')) continue;
      const known = series.get(sel.name);
      if (!check(known, where, `metric ${sel.name} is not registered by the code (apps/, libs/) nor made by prom-client or Prometheus`)) continue;
      used.add(known.metric);
      if (!known.labels) continue;
      for (const m of sel.matchers) {
        check(known.labels.has(m.label), where, `${sel.name} has no label "${m.label}" (it has ${[...known.labels].sort().join(', ')})`);
      }
    }
    // by/without/on/ignoring name labels of the metrics in the expression (label_replace may add
    // others: then the check is skipped).
    const labelSets = parsed.selectors.map((sel) => series.get(sel.name)?.labels);
    if (!/label_(replace|join)\s*\(/.test(expr) && labelSets.length && labelSets.every(Boolean)) {
      const union = new Set(labelSets.flatMap((l) => [...l]));
      for (const label of new Set(parsed.groupingLabels)) check(union.has(label), where, `groups by "${label}", a label none of its metrics has`);
    }
    return parsed;
  };

  // ------------------------------------------------------------------------- the rules file --
  let rulesDoc;
  try {
    rulesDoc = YAML.parse(readFileSync(at('rules'), 'utf8'));
  } catch (error) {
    check(false, rel('rules'), `does not parse: ${error.message}`);
  }
  const anchors = headingAnchors(readFileSync(at('operations'), 'utf8'));
  const alerts = alertRules(rulesDoc?.groups);
  check(alerts.length > 0, rel('rules'), 'no rules');
  const names = new Set();
  for (const { group, rule } of alerts) {
    const id = rule.alert ?? rule.record;
    const where = `${rel('rules')} ${group}/${id}`;
    check(typeof rule.expr === 'string' && rule.expr.trim(), where, 'no expr');
    if (typeof rule.expr === 'string') checkExpr(where, rule.expr);
    if (!rule.alert) continue;
    check(!names.has(rule.alert), where, 'alert name used twice');
    names.add(rule.alert);
    check(/^Vigil[A-Z][A-Za-z0-9]+$/.test(rule.alert), where, 'alert names are VigilCamelCase');
    check(['critical', 'warning', 'info'].includes(rule.labels?.severity), where, 'labels.severity must be critical, warning or info');
    for (const a of ['summary', 'description', 'runbook_url']) check(rule.annotations?.[a], where, `annotations.${a} missing`);
    const runbook = /^docs\/operations\.md#([a-z0-9-]+)$/.exec(rule.annotations?.runbook_url ?? '');
    if (check(runbook, where, `runbook_url must be docs/operations.md#<anchor>, got "${rule.annotations?.runbook_url}"`)) {
      check(anchors.has(runbook[1]), where, `runbook_url anchor #${runbook[1]} is not a heading of docs/operations.md`);
      check(runbook[1] === rule.alert.toLowerCase(), where, `runbook_url anchor should be #${rule.alert.toLowerCase()} (a heading named after the alert)`);
    }
    if (/\bup\b/.test(rule.expr ?? '') && /up\s*\{/.test(rule.expr)) {
      for (const sel of promqlSelectors(rule.expr).selectors.filter((s) => s.name === 'up')) {
        check(sel.matchers.some((m) => m.label === 'job' && m.op === '=' && m.value === VIGIL_JOB), where, `up must be selected with job="${VIGIL_JOB}" (the job the ServiceMonitor sets)`);
      }
    }
  }

  // Every row of docs/operations.md's alerting table is covered by an alert.
  const operations = readFileSync(at('operations'), 'utf8');
  const table = /## Metrics worth alerting on\n([\s\S]*?)\n## /.exec(operations)?.[1] ?? '';
  const rows = table.split('\n').filter((l) => l.startsWith('|') && !/^\|\s*(metric|---)/.test(l));
  check(rows.length > 0, rel('operations'), 'no "Metrics worth alerting on" table');
  const alertMetrics = new Map(alerts.filter((a) => a.rule.alert).map((a) => [a.rule.alert, new Set(promqlSelectors(a.rule.expr ?? '').selectors.map((s) => series.get(s.name)?.metric ?? s.name))]));
  for (const row of rows) {
    const rowMetrics = [...row.split('|')[1].matchAll(/`([a-z_:][a-z0-9_:]*)(\{[^`]*\})?`/g)].map((m) => m[1]);
    const covered = [...alertMetrics].filter(([, ms]) => rowMetrics.some((m) => ms.has(m))).map(([a]) => a);
    check(covered.length > 0, `${rel('operations')} "Metrics worth alerting on"`, `no alert in ${rel('rules')} uses ${rowMetrics.join(', ') || row}`);
    for (const m of rowMetrics) check(metrics.has(m) || series.has(m), `${rel('operations')} "Metrics worth alerting on"`, `${m} is not a metric the code registers`);
  }
  // Every alert has its runbook entry, and the docs name no alert that does not exist.
  for (const m of operations.matchAll(/^#{2,6}\s+(Vigil[A-Z][A-Za-z0-9]+)\s*$/gm)) check(names.has(m[1]), rel('operations'), `documents ${m[1]}, which ${rel('rules')} does not define`);

  // The PrometheusRule carries the same groups.
  let prometheusRule;
  try {
    prometheusRule = YAML.parse(readFileSync(at('prometheusRule'), 'utf8'));
  } catch (error) {
    check(false, rel('prometheusRule'), `does not parse: ${error.message}`);
  }
  check(prometheusRule?.kind === 'PrometheusRule', rel('prometheusRule'), 'is not a PrometheusRule');
  check(
    canonical(prometheusRule?.spec?.groups) === canonical(rulesDoc?.groups),
    rel('prometheusRule'),
    `its groups differ from ${rel('rules')}: run \`node tools/validate-deploy.mjs --write-prometheus-rule\``,
  );

  // ------------------------------------------------------------------------------ dashboard --
  let dashboard;
  try {
    dashboard = JSON.parse(readFileSync(at('dashboard'), 'utf8'));
  } catch (error) {
    check(false, rel('dashboard'), `is not JSON: ${error.message}`);
  }
  const queries = [];
  if (dashboard) {
    const variables = new Map((dashboard.templating?.list ?? []).map((v) => [v.name, v]));
    check(variables.get('DS_PROMETHEUS')?.type === 'datasource' && variables.get('DS_PROMETHEUS')?.query === 'prometheus', rel('dashboard'), 'needs a datasource variable DS_PROMETHEUS of type prometheus');
    check(dashboard.__inputs?.some((i) => i.name === 'DS_PROMETHEUS' && i.pluginId === 'prometheus'), rel('dashboard'), 'needs the DS_PROMETHEUS import input');
    for (const v of ['namespace', 'job', 'service']) check(variables.get(v)?.type === 'query', rel('dashboard'), `needs a query variable "${v}"`);
    check(dashboard.uid && dashboard.title, rel('dashboard'), 'needs a uid and a title');
    for (const v of variables.values()) {
      if (v.type !== 'query') continue;
      const text = typeof v.query === 'string' ? v.query : v.query?.query;
      const lv = /^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)$/.exec(text ?? '');
      if (!check(lv, `${rel('dashboard')} variable ${v.name}`, `expected label_values(<selector>, <label>), got "${text}"`)) continue;
      const parsed = checkExpr(`${rel('dashboard')} variable ${v.name}`, lv[1]);
      for (const sel of parsed?.selectors ?? []) {
        const labels = series.get(sel.name)?.labels;
        if (labels) check(labels.has(lv[2]), `${rel('dashboard')} variable ${v.name}`, `${sel.name} has no label "${lv[2]}"`);
      }
      queries.push({ where: `variable ${v.name}`, expr: lv[1] });
    }
    const panels = (dashboard.panels ?? []).flatMap((p) => [p, ...(p.panels ?? [])]);
    check(panels.some((p) => p.type !== 'row'), rel('dashboard'), 'no panels');
    const ids = new Set();
    for (const p of panels) {
      const where = `${rel('dashboard')} panel "${p.title}"`;
      check(!ids.has(p.id), where, `panel id ${p.id} used twice`);
      ids.add(p.id);
      if (p.type === 'row') continue;
      check(p.datasource?.uid === '${DS_PROMETHEUS}', where, 'datasource must be ${DS_PROMETHEUS}');
      check(p.targets?.length, where, 'no queries');
      for (const t of p.targets ?? []) {
        check(t.datasource?.uid === '${DS_PROMETHEUS}', where, `query ${t.refId}: datasource must be \${DS_PROMETHEUS}`);
        if (!check(typeof t.expr === 'string' && t.expr, where, `query ${t.refId} has no expr`)) continue;
        checkExpr(where, t.expr);
        for (const v of ['namespace', 'job', 'service']) {
          for (const sel of promqlSelectors(t.expr).selectors) {
            check(sel.matchers.some((m) => m.label === v && m.value === `$${v}`), where, `query ${t.refId}: ${sel.name} must be filtered by ${v}=~"$${v}"`);
          }
        }
        queries.push({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr });
      }
    }
    const unusedVigil = [...code.metrics.keys()].filter((m) => !used.has(m));
    if (unusedVigil.length) note(`metrics neither on the dashboard nor in an alert: ${unusedVigil.join(', ')}`);
  }

  // --------------------------------------------------------------------------------- promtool --
  const promtool = findPromtool();
  if (!promtool) {
    const message =
      'promtool not found (Debian: apt-get install prometheus; or set VIGIL_PROMTOOL): the rules, their unit tests and the dashboard queries were NOT checked by Prometheus';
    if (process.env.CI) check(false, 'promtool', message);
    else warn('promtool', `SKIPPED: ${message}`);
    return;
  }
  note(`rules and queries checked with ${promtool.version}`);
  const run = (args, cwd) => spawnSync(promtool.cmd, args, { encoding: 'utf8', cwd, timeout: 120_000 });
  const out = (r) => `${r.stdout ?? ''}${r.stderr ?? ''}${r.error?.message ?? ''}`.trim().split('\n').slice(-25).join('\n       ');
  const checked = run(['check', 'rules', at('rules')]);
  check(checked.status === 0, rel('rules'), `promtool check rules failed:\n       ${out(checked)}`);
  const tested = run(['test', 'rules', at('rulesTest')], dirname(at('rulesTest')));
  check(tested.status === 0, rel('rulesTest'), `promtool test rules failed:\n       ${out(tested)}`);
  // Every alert has a unit test that expects it to fire.
  const testDoc = YAML.parse(readFileSync(at('rulesTest'), 'utf8'));
  const tests = (testDoc?.tests ?? []).flatMap((t) => t.alert_rule_test ?? []);
  const testedAlerts = new Set(tests.filter((t) => t.exp_alerts?.length).map((t) => t.alertname));
  for (const a of names) check(testedAlerts.has(a), rel('rulesTest'), `no unit test expects ${a} to fire`);

  // The dashboard's queries, as recording rules, through promtool's parser.
  if (queries.length) {
    const tmp = mkdtempSync(join(tmpdir(), 'vigil-dashboard-'));
    try {
      const file = join(tmp, 'dashboard-queries.yaml');
      const groups = [{ name: 'dashboard', rules: queries.map((q, k) => ({ record: `vigil_dashboard_query_${k}`, expr: fillGrafanaVariables(q.expr) })) }];
      writeFileSync(file, YAML.stringify({ groups }));
      const r = run(['check', 'rules', file]);
      const detail = out(r).replace(/vigil_dashboard_query_(\d+)/g, (_, k) => queries[Number(k)].where);
      check(r.status === 0, rel('dashboard'), `a query does not parse (promtool):\n       ${detail}`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

/** Writes deploy/monitoring/prometheus-rule.yaml from the rules file. */
export function writePrometheusRule(dir = REPO) {
  const rules = YAML.parse(readFileSync(join(dir, MONITORING_FILES.rules), 'utf8'));
  const object = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'vigil', labels: { 'app.kubernetes.io/name': 'vigil' } },
    spec: { groups: rules.groups },
  };
  const header =
    '# Generated from prometheus/vigil-rules.yaml by `node tools/validate-deploy.mjs --write-prometheus-rule`: edit that file,\n' +
    '# then regenerate (npm run validate:deploy fails while they differ).\n';
  writeFileSync(join(dir, MONITORING_FILES.prometheusRule), header + YAML.stringify(object, { lineWidth: 0 }));
}

// ----------------------------------------------------------------------------------- the CLI --

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const dirIndex = args.indexOf('--dir');
  const dir = dirIndex >= 0 ? resolve(args[dirIndex + 1]) : REPO;
  const problems = [];
  const warnings = [];
  let passed = 0;
  checkMonitoring(
    {
      check: (ok, where, message) => (ok ? passed++ : problems.push(`${where}: ${message}`), Boolean(ok)),
      warn: (where, message) => warnings.push(`${where}: ${message}`),
      note: (message) => console.log(`     - ${message}`),
    },
    { dir },
  );
  for (const p of problems) console.log(`     x ${p}`);
  for (const w of warnings) console.log(`     ! ${w}`);
  console.log(`validate-monitoring: ${problems.length ? 'FAILED' : 'passed'}: ${passed} passed, ${problems.length} failed, ${warnings.length} warnings`);
  process.exitCode = problems.length ? 1 : 0;
}
