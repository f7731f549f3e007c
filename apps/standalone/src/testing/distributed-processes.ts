import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnJs, type TcpProxy, type TestDatabase, type TestKafka, testKafka, testRpcFiles, startTcpProxy, waitFor } from '@vigil/testing';

export type ServiceName = 'auth' | 'policy' | 'event-ingest' | 'delivery' | 'gateway' | 'pg-proxy';

/** Start order: what a service calls at start-up is up before it (event-ingest loads policies from policy). */
export const SERVICE_ORDER: ServiceName[] = ['auth', 'policy', 'event-ingest', 'delivery', 'gateway'];

/** The PostgreSQL audit proxy, started last when a system asks for it (startDistributedSystem's `proxy`). */
const PROXY: ServiceName = 'pg-proxy';

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
export async function buildServices(folder: string, services: ServiceName[] = SERVICE_ORDER): Promise<void> {
  const run = promisify(execFile);
  await Promise.all(
    services.map((service) =>
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
  /** pg-proxy: where PostgreSQL clients connect (127.0.0.1). */
  proxyPort?: number;
  /** pg-proxy: its spill folder, kept across restarts of the replica. */
  spillDir?: string;
  child?: ChildService;
  /** Every earlier process of this replica, for the output of a failed run. */
  outputs: string[];
  /** The folder of bundles (`<service>/main.js`) it starts from: another release's; default the system's own build. */
  bundles?: string;
  /** Variables of this replica alone, over the system's. */
  env?: Record<string, string>;
}

export interface DistributedSystem {
  gatewayUrl: string;
  db: TestDatabase;
  kafka: TestKafka;
  /** The TCP relay every service reaches PostgreSQL through: cut it for an outage. */
  databaseRelay: TcpProxy;
  adminPassword: string;
  /** The folder of this build's bundles (`<service>/main.js`). */
  bundles: string;
  replicas: Replica[];
  /** Every variable a replica is started with (besides what spawnJs adds). */
  env(replica: Replica): Record<string, string>;
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
  /** The whole output of every process so far (a replica's earlier processes first), for a failed scenario's report. */
  logs(): { name: string; output: string }[];
  close(): Promise<void>;
}

/**
 * The distributed deployment as the docs describe it, on this machine: every service its own Node
 * process running its bundle (buildServices, as the images run them), on the real Kafka broker (own topic
 * prefix) and a fresh database on the test server, reached through a TCP relay the test controls.
 * Each service migrates its own schema at start (MIGRATE_ON_START, the test server's superuser).
 * Every variable a service is given is set in `serviceEnv`, in one place.
 */
export async function startDistributedSystem(
  options: {
    env?: Record<string, string>;
    /** The broker (default: the test broker, testKafka()); e.g. a private one the test may kill. */
    kafka?: TestKafka;
    /**
     * Adds a pg-proxy replica (started last) in front of the test server: `databases` maps each
     * PostgreSQL database name to its Vigil database id; `env` adds proxy settings (spill bounds,
     * fail modes).
     */
    proxy?: { databases: Record<string, string>; env?: Record<string, string> };
    /** Every replica (added ones too) starts from these bundles (`<service>/main.js`) until its own `bundles` is changed: another release's. */
    bundles?: string;
  } = {},
): Promise<DistributedSystem> {
  const bundles = join(ROOT, 'tmp', `faults-${randomBytes(4).toString('hex')}`);
  const began = Date.now();
  const say = (line: string) => process.stdout.write(`distributed system: ${line} (${((Date.now() - began) / 1000).toFixed(1)} s)\n`);
  const services = options.proxy ? [...SERVICE_ORDER, PROXY] : SERVICE_ORDER;
  await buildServices(bundles, services).catch((error) => {
    rmSync(bundles, { recursive: true, force: true });
    throw error;
  });
  say('services bundled');
  const db = await createTestDatabase();
  const kafka = options.kafka ?? testKafka();
  const databaseUrl = new URL(db.url);
  const databaseRelay = await startTcpProxy(databaseUrl.hostname, Number(databaseUrl.port || 5432));
  const relayedUrl = new URL(db.url);
  relayedUrl.hostname = '127.0.0.1';
  relayedUrl.port = String(databaseRelay.port);
  const adminPassword = 'faults-admin-password';
  const replicas: Replica[] = [];
  const newReplica = async (service: ServiceName): Promise<Replica> => {
    const index = replicas.filter((r) => r.service === service).length;
    const replica: Replica = { service, index, httpPort: await freePort(), rpcPort: RPC_VARIABLE[service] ? await freePort() : undefined, outputs: [], bundles: options.bundles };
    if (service === PROXY) {
      replica.proxyPort = await freePort();
      replica.spillDir = join(bundles, `pg-proxy-spill-${index}`);
      mkdirSync(replica.spillDir, { recursive: true });
    }
    replicas.push(replica);
    return replica;
  };
  for (const service of services) await newReplica(service);

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
    if (replica.service === PROXY && options.proxy) {
      // The audited server is the test server itself (not through the relay: that is Vigil's own database).
      const server = new URL(db.url);
      Object.assign(env, {
        PROXY_LISTEN_HOST: '127.0.0.1',
        PROXY_LISTEN_PORT: String(replica.proxyPort),
        PROXY_UPSTREAM: `${server.hostname}:${server.port || 5432}`,
        PROXY_CATALOG_USER: decodeURIComponent(server.username || 'postgres'),
        PROXY_CATALOG_PASSWORD: decodeURIComponent(server.password),
        PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE: 'true',
        PROXY_SPILL_DIR: replica.spillDir!,
        PROXY_DATABASE_IDS: Object.entries(options.proxy.databases).map(([name, id]) => `${name}:${id}`).join(','),
        ...options.proxy.env,
      });
    }
    return { ...env, ...replica.env };
  };

  const start = async (replica: Replica, timeoutMs = 240_000) => {
    if (replica.child && replica.child.process.exitCode === null && replica.child.process.signalCode === null) throw new Error(`${replica.service}#${replica.index} is running`);
    const child = spawnJs(join(replica.bundles ?? bundles, replica.service, 'main.js'), serviceEnv(replica));
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
  /** Children whose output moved to their replica's `outputs` (killed or stopped). */
  const retired = new WeakSet<ChildService>();
  const retire = (replica: Replica) => {
    if (replica.child && !retired.has(replica.child)) {
      retired.add(replica.child);
      replica.outputs.push(replica.child.output());
    }
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
    bundles,
    replicas,
    env: serviceEnv,
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
    logs: () =>
      replicas.flatMap((r) => {
        const processes = [...r.outputs, ...(r.child && !retired.has(r.child) ? [r.child.output()] : [])];
        return processes.map((output, i) => ({ name: `${r.service}#${r.index}${processes.length > 1 ? ` process ${i + 1} of ${processes.length}` : ''}`, output }));
      }),
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
