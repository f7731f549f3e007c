import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnJs, type TcpProxy, type TestDatabase, type TestKafka, testKafka, testRpcFiles, startTcpProxy, waitFor } from '@vigil/testing';

export type ServiceName = 'auth' | 'policy' | 'event-ingest' | 'delivery' | 'gateway';

/** Start order: what a service calls at start-up is up before it (event-ingest loads policies from policy). */
export const SERVICE_ORDER: ServiceName[] = ['auth', 'policy', 'event-ingest', 'delivery', 'gateway'];

const RPC_VARIABLE: Partial<Record<ServiceName, string>> = {
  auth: 'AUTH_RPC_ADDRESS',
  policy: 'POLICY_RPC_ADDRESS',
  'event-ingest': 'EVENT_INGEST_RPC_ADDRESS',
  delivery: 'DELIVERY_RPC_ADDRESS',
};

const ROOT = resolve(__dirname, '../../../..');

/**
 * Bundles every service as its image does (tools/webpack.app.config.js, one main.js per service,
 * npm packages required at run time) into `<folder>/<service>/main.js`, all at once. A bundle
 * starts in a second or two where compiling the sources at start takes tens of seconds on a busy
 * machine, so a restart in a scenario costs what it costs in production. The folder is inside the
 * repository (tmp/, ignored) so the bundles find node_modules.
 */
export async function buildServices(folder: string): Promise<void> {
  const run = promisify(execFile);
  await Promise.all(
    SERVICE_ORDER.map((service) =>
      run(
        process.execPath,
        [join(ROOT, 'node_modules/webpack/bin/webpack.js'), '--config', 'tools/webpack.app.config.js', '--env', `app=${service}`, '--output-path', join(folder, service)],
        { cwd: ROOT, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      ),
    ),
  );
}

export interface Replica {
  service: ServiceName;
  index: number;
  httpPort: number;
  /** Internal services: the RPC port (the first replica's is the one every service is given). */
  rpcPort?: number;
  child?: ChildService;
  /** Every earlier process of this replica, for the output of a failed run. */
  outputs: string[];
}

export interface DistributedSystem {
  gatewayUrl: string;
  db: TestDatabase;
  kafka: TestKafka;
  /** The TCP relay every service reaches PostgreSQL through: cut it for an outage. */
  databaseRelay: TcpProxy;
  adminPassword: string;
  replicas: Replica[];
  replica(service: ServiceName, index?: number): Replica;
  /** Starts (or restarts) a replica's process and waits until it answers ready. */
  start(replica: Replica, timeoutMs?: number): Promise<void>;
  /** SIGKILL, no shutdown hooks. */
  kill(replica: Replica): Promise<void>;
  /** SIGTERM; answers the exit code, or fails (the process killed) when it does not exit within the timeout. */
  stop(replica: Replica, timeoutMs?: number): Promise<number | null>;
  /** A second (third, ...) process of a service, started. */
  addReplica(service: ServiceName): Promise<Replica>;
  /** The last lines of every process's output, for a failure message. */
  outputs(): string;
  close(): Promise<void>;
}

/**
 * The distributed deployment as the docs describe it, on this machine: every service its own Node
 * process running its bundle (buildServices, as the images run them), on the real Kafka broker (own topic
 * prefix) and a fresh database on the test server, reached through a TCP relay the test controls.
 * Each service migrates its own schema at start (MIGRATE_ON_START, the test server's superuser).
 * Every variable a service is given is set in `serviceEnv`, in one place.
 */
export async function startDistributedSystem(options: { env?: Record<string, string> } = {}): Promise<DistributedSystem> {
  const bundles = join(ROOT, 'tmp', `faults-${randomBytes(4).toString('hex')}`);
  const began = Date.now();
  const say = (line: string) => process.stdout.write(`distributed system: ${line} (${((Date.now() - began) / 1000).toFixed(1)} s)\n`);
  await buildServices(bundles).catch((error) => {
    rmSync(bundles, { recursive: true, force: true });
    throw error;
  });
  say('services bundled');
  const db = await createTestDatabase();
  const kafka = testKafka();
  const databaseUrl = new URL(db.url);
  const databaseRelay = await startTcpProxy(databaseUrl.hostname, Number(databaseUrl.port || 5432));
  const relayedUrl = new URL(db.url);
  relayedUrl.hostname = '127.0.0.1';
  relayedUrl.port = String(databaseRelay.port);
  const adminPassword = 'faults-admin-password';
  const replicas: Replica[] = [];
  const newReplica = async (service: ServiceName): Promise<Replica> => {
    const index = replicas.filter((r) => r.service === service).length;
    const replica: Replica = { service, index, httpPort: await freePort(), rpcPort: RPC_VARIABLE[service] ? await freePort() : undefined, outputs: [] };
    replicas.push(replica);
    return replica;
  };
  for (const service of SERVICE_ORDER) await newReplica(service);

  const shared: Record<string, string> = {
    LOG_LEVEL: 'warn',
    DATABASE_URL: relayedUrl.toString(),
    DATABASE_POOL_SIZE: '6',
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_TOPIC_PREFIX: kafka.prefix,
    ...kafka.env,
    VIGIL_ENCRYPTION_KEYS: SecretBox.generateKey(),
    AUDIT_ADMIN_EMAIL: 'admin@example.com',
    AUDIT_ADMIN_PASSWORD: adminPassword,
    OUTBOX_POLL_MS: '50',
    DELIVERY_ALLOW_INSECURE_TARGETS: 'true',
    WEBHOOK_POLL_MS: '100',
    // A lease short enough that a killed delivery process's claims are taken over within the
    // scenario, long enough that a starved but live worker keeps its claim (a 3 s lease on a busy
    // machine had live workers' deliveries sent again: at least once, but counted as copies).
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_LEASE_MS: '15000',
    WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1,1,1,1,1',
    // A restarted event-ingest enforces without the policies once this wait runs out (documented
    // degraded mode, docs/policies.md#enforcement). On a busy 2-core machine the restart's policy
    // load took longer than the 10 s default, and flagged records of the following 20 s got no
    // violation (docs/operations.md#faults): the suite waits as long as a restart takes here.
    ENFORCEMENT_READY_TIMEOUT_MS: '120000',
    ...options.env,
  };
  const serviceEnv = (replica: Replica): Record<string, string> => {
    // Each service its own RPC certificate (one CA per test process), as deployed.
    const env: Record<string, string> = { ...shared, ...testRpcFiles(replica.service), HOST: '127.0.0.1', PORT: String(replica.httpPort), METRICS_PORT: '0' };
    // Every service is given the first replica's RPC address of every internal service.
    for (const [service, variable] of Object.entries(RPC_VARIABLE)) {
      env[variable] = `127.0.0.1:${replicas.find((r) => r.service === service && r.index === 0)!.rpcPort}`;
    }
    if (replica.rpcPort) Object.assign(env, { RPC_HOST: '127.0.0.1', RPC_PORT: String(replica.rpcPort) });
    return env;
  };

  const start = async (replica: Replica, timeoutMs = 240_000) => {
    if (replica.child && replica.child.process.exitCode === null && replica.child.process.signalCode === null) throw new Error(`${replica.service}#${replica.index} is running`);
    const child = spawnJs(join(bundles, replica.service, 'main.js'), serviceEnv(replica));
    replica.child = child;
    await waitFor(
      async () => {
        if (child.process.exitCode !== null) throw new Error(`${replica.service}#${replica.index} exited with ${child.process.exitCode}`);
        return (await fetch(`http://127.0.0.1:${replica.httpPort}/health/ready`, { signal: AbortSignal.timeout(2000) })).status === 200;
      },
      timeoutMs,
      `${replica.service}#${replica.index} ready`,
    ).catch((error) => {
      throw new Error(`${(error as Error).message}\n--- output ---\n${child.output().slice(-3000)}`);
    });
  };
  const retire = (replica: Replica) => {
    if (replica.child) replica.outputs.push(replica.child.output().slice(-4000));
  };
  const kill = async (replica: Replica) => {
    await replica.child?.kill();
    retire(replica);
  };
  /** SIGTERM; a process still running after `timeoutMs` is killed and the stop fails. */
  const stop = async (replica: Replica, timeoutMs = 60_000) => {
    const child = replica.child;
    if (!child) return null;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([child.stop(), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      await child.kill();
      retire(replica);
      throw new Error(`${replica.service}#${replica.index} did not exit within ${timeoutMs} ms of SIGTERM\n${replica.outputs.at(-1)}`);
    }
    retire(replica);
    return outcome;
  };

  const system: DistributedSystem = {
    gatewayUrl: `http://127.0.0.1:${replicas.find((r) => r.service === 'gateway')!.httpPort}`,
    db,
    kafka,
    databaseRelay,
    adminPassword,
    replicas,
    replica: (service, index = 0) => {
      const found = replicas.find((r) => r.service === service && r.index === index);
      if (!found) throw new Error(`no replica ${service}#${index}`);
      return found;
    },
    start,
    kill,
    stop,
    addReplica: async (service) => {
      const replica = await newReplica(service);
      await start(replica);
      return replica;
    },
    outputs: () =>
      replicas
        .map((r) => `--- ${r.service}#${r.index} ---\n${[...r.outputs, r.child?.output().slice(-4000) ?? ''].join('\n[restarted]\n').slice(-3000)}`)
        .join('\n'),
    close: async () => {
      // Whatever state the test left them in: every process is killed, then the relay and database go.
      await Promise.all(replicas.map((r) => r.child?.kill().catch(() => undefined)));
      await databaseRelay.close();
      await db.drop();
      rmSync(bundles, { recursive: true, force: true });
    },
  };
  try {
    for (const replica of [...replicas]) {
      await start(replica);
      say(`${replica.service} ready`);
    }
  } catch (error) {
    await system.close();
    throw error;
  }
  return system;
}
