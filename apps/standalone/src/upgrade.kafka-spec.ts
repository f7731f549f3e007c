import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { SERVICE_SCHEMAS } from '@vigil/database';
import { type TestDatabase, waitFor } from '@vigil/testing';
import { type DistributedSystem, type Replica, SERVICE_ORDER, startDistributedSystem } from './testing/distributed-processes';
import { expectExact, type FaultBench, type FaultRow, prepareFaultBench } from './testing/fault-scenario';
import { preparePreviousRelease, type PreviousRelease, RELEASE_PIN } from './testing/previous-release';

const ROOT = resolve(__dirname, '../../..');

/** The bounds of the other scenarios (docs/operations.md#faults); recovery is measured from the start of the last replica. */
const RECOVERY_BOUND_MS = { http: 90_000, endToEnd: 150_000 };

interface SchemaState {
  schema: string;
  service: string;
  /** The newest migration applied: the release the schema is at. */
  release: number;
  /** The writer fence's `min_writer`, or null where the schema has no fence table. */
  minWriter: number | null;
}

async function schemaStates(db: TestDatabase): Promise<SchemaState[]> {
  const states: SchemaState[] = [];
  for (const { service, schema } of SERVICE_SCHEMAS) {
    const [{ release }] = await db.query<{ release: string }>(`SELECT coalesce(max("timestamp"), 0)::text AS release FROM ${schema}.migrations`);
    const [{ fence }] = await db.query<{ fence: string | null }>(`SELECT to_regclass($1)::text AS fence`, [`${schema}.writer_fence`]);
    const minWriter = fence ? Number((await db.query<{ min_writer: string }>(`SELECT min_writer::text FROM ${schema}.writer_fence`))[0]!.min_writer) : null;
    states.push({ schema, service, release: Number(release), minWriter });
  }
  return states;
}

/** `node <bundle> migrate` of one service, as the init container of a rollout's first pod runs it. */
function migrate(system: DistributedSystem, replica: Replica): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(system.bundles, replica.service, 'main.js'), 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_ALLOW_PRIVILEGED_ROLE: 'true', ...system.env(replica) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((done) => child.on('exit', (code) => done({ code, output })));
}

/**
 * An upgrade from the previous release (tools/previous-release.txt) to this build, with traffic
 * flowing, on the distributed deployment of the fault suite (every service its own process, real
 * Kafka and PostgreSQL; two replicas of event-ingest and delivery). The deployment starts on the
 * previous release's bundles and migrations; under the fault suite's load, this build's `migrate`
 * runs for every service (as a rollout's first pod's init container), then every replica in turn
 * gets SIGTERM, exits, and is replaced by this build's bundle (`MIGRATE_ON_START=false`, as
 * deployed), ready before the next one stops. The test reads the writer fences after the migrate: a
 * release that raises none must roll with nothing lost or applied twice; a release that raises one
 * must refuse the previous release's writers (those replicas report not ready, and, for
 * event-ingest, store nothing more until this build's replicas take over), then end exact too.
 */
describe('an upgrade from the previous release to this build, under load', () => {
  let previous: PreviousRelease;
  let system: DistributedSystem;
  let bench: FaultBench;

  beforeAll(async () => {
    previous = await preparePreviousRelease(SERVICE_ORDER);
    // Alert sends are rate limited per destination: a one-second window keeps them from queueing behind it.
    system = await startDistributedSystem({ bundles: previous.bundles, env: { ALERT_RATE_WINDOW_MS: '1000' } });
    await system.addReplica('event-ingest');
    await system.addReplica('delivery');
    bench = await prepareFaultBench(system);
  }, 1_800_000);

  afterAll(async () => {
    if (bench?.rows.length) process.stdout.write(`\n${bench.table()}\n`);
    await bench?.close();
    await system?.close();
  }, 60_000);

  it(`the previous release (${RELEASE_PIN}) replaced one replica at a time after this build's migrate: rolls if no writer fence is raised, refuses the old writers if one is; nothing lost or applied twice`, async () => {
    const readyStatus = async (replica: Replica) => (await fetch(`http://127.0.0.1:${replica.httpPort}/health/ready`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined))?.status;
    // Each service's replicas in turn, in start order (what a service calls is replaced before it).
    const rollout = SERVICE_ORDER.flatMap((service) => system.replicas.filter((r) => r.service === service));
    expect(rollout.every((r) => r.bundles === previous.bundles)).toBe(true);

    const before = await schemaStates(system.db);
    let after: SchemaState[] = [];
    let fenced: SchemaState[] = [];
    const migrations: string[] = [];
    const notReady: string[] = [];
    const stops: { replica: string; exit: number | null; line: string }[] = [];
    let storedAtFence = -1;
    let storedBeforeNewIngest = -1;
    const upgradeBegan = Date.now();

    const row: FaultRow = await bench.scenario(`upgrade from ${previous.version} (${previous.commit.slice(0, 7)})`, async ({ storedSoFar }) => {
      for (const { service } of SERVICE_SCHEMAS) {
        const { code, output } = await migrate(system, system.replica(service));
        if (code !== 0) throw new Error(`this build's ${service} migrate exited with ${code}:\n${output.slice(-3000)}`);
        const result = output.split('\n').find((line) => line.includes('"result"'));
        migrations.push(`${service}: ${result ? JSON.stringify(JSON.parse(result).result.applied) : output.trim().slice(-200)}`);
      }
      after = await schemaStates(system.db);
      process.stdout.write(`upgrade: this build's migrate done (${((Date.now() - upgradeBegan) / 1000).toFixed(1)} s into the scenario): ${migrations.join('; ')}\n`);
      // Fenced: the fence now excludes the release the schema was at before this build's migrate.
      fenced = after.filter((state) => state.minWriter !== null && state.minWriter > before.find((b) => b.schema === state.schema)!.release);
      const unguarded = fenced.filter((state) => before.find((b) => b.schema === state.schema)!.minWriter === null);
      if (unguarded.length) {
        throw new Error(
          `this build raises the writer fence of ${unguarded.map((s) => s.schema).join(', ')}, which the previous release does not read: ` +
            'such an upgrade needs a recreate (docs/operations.md#upgrading-and-migrations), not a rolling update',
        );
      }
      if (fenced.length) {
        storedAtFence = await storedSoFar();
        for (const state of fenced) {
          for (const replica of system.replicas.filter((r) => r.service === state.service)) {
            await waitFor(async () => (await readyStatus(replica)) === 503, 30_000, `${replica.service}#${replica.index} of the previous release not ready once fenced`);
            notReady.push(`${replica.service}#${replica.index}`);
          }
        }
      }
      let startedLast = Date.now();
      for (const replica of rollout) {
        if (replica.service === 'event-ingest' && replica.index === 0 && fenced.some((s) => s.service === 'event-ingest')) storedBeforeNewIngest = await storedSoFar();
        const signalled = Date.now();
        const exit = await system.stop(replica);
        const exitedAt = Date.now();
        startedLast = exitedAt;
        replica.bundles = system.bundles;
        // As deployed: the migrate command ran; the service checks that every migration of its own is applied.
        replica.env = { ...replica.env, MIGRATE_ON_START: 'false' };
        await system.start(replica);
        stops.push({ replica: `${replica.service}#${replica.index}`, exit, line: `exit ${exit} in ${((exitedAt - signalled) / 1000).toFixed(1)} s, ready ${((Date.now() - exitedAt) / 1000).toFixed(1)} s` });
        process.stdout.write(`upgrade: ${stops.at(-1)!.replica} replaced: ${stops.at(-1)!.line} (${((Date.now() - upgradeBegan) / 1000).toFixed(1)} s into the scenario)\n`);
      }
      return startedLast;
    });
    row.scenario += fenced.length ? ` (writer fence raised on ${fenced.map((s) => s.schema).join(', ')}: the previous release's writers refused)` : ' (no writer fence raised: rolled)';

    process.stdout.write(
      [
        `upgrade: previous release ${previous.version} (${previous.commit}) ${previous.how}, node_modules ${previous.nodeModules}, preparation ${JSON.stringify(previous.timings)} ms`,
        `upgrade: schemas before ${JSON.stringify(before)}, after this build's migrate ${JSON.stringify(after)}`,
        `upgrade: migrations applied by this build's migrate: ${migrations.join('; ')}`,
        `upgrade: ${fenced.length ? `fenced ${fenced.map((s) => s.schema).join(', ')}; not ready once fenced: ${notReady.join(', ')}; stored at the fence ${storedAtFence}, before this build's first event-ingest ${storedBeforeNewIngest}` : 'no writer fence raised'}`,
        `upgrade: ${stops.map((s) => `${s.replica} ${s.line}`).join('; ')}`,
        `upgrade: ${((Date.now() - upgradeBegan) / 1000).toFixed(1)} s for the scenario; load ${JSON.stringify(row.figures.failures)}`,
        '',
      ].join('\n'),
    );

    // Every replica now runs this build, and each previous-release process exited 0 on SIGTERM.
    expect(system.replicas.filter((r) => r.bundles !== system.bundles).map((r) => `${r.service}#${r.index} on ${r.bundles}`)).toEqual([]);
    expect(rollout).toHaveLength(system.replicas.length);
    expect(stops.map((s) => `${s.replica} exit ${s.exit}`)).toEqual(rollout.map((r) => `${r.service}#${r.index} exit 0`));
    // (This build's replicas started with MIGRATE_ON_START=false, which refuses to start while a
    // migration of theirs is not applied: the migrate left nothing to them.)
    if (fenced.some((s) => s.service === 'event-ingest')) {
      // Refused: nothing stored between the fence and this build's first event-ingest replica.
      expect(storedBeforeNewIngest).toBe(storedAtFence);
      expect(row.figures.failures['503'] ?? 0).toBeGreaterThan(0);
    }
    expect({ http: row.httpRecoveryMs <= RECOVERY_BOUND_MS.http, endToEnd: row.endToEndRecoveryMs <= RECOVERY_BOUND_MS.endToEnd, row: [row.httpRecoveryMs, row.endToEndRecoveryMs] }).toEqual({
      http: true,
      endToEnd: true,
      row: [row.httpRecoveryMs, row.endToEndRecoveryMs],
    });
    // Graceful stops: no webhook or alert copy is sent twice either.
    expectExact(row);
    // Generous: on a busy 2-core machine each of the seven replicas takes a minute or more to start.
  }, 2_700_000);
});
