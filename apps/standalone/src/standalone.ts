import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRpcAuthority, issueRpcCertificate, type RpcAuthority, type RpcCredentials } from '@vigil/contracts';
import { sharedMemoryBus } from '@vigil/messaging';
import {
  type BannerSection,
  commonConfigSpec,
  createLogger,
  type Env,
  loadConfig,
  type Logger,
  printBanner,
  resolveLogFormat,
  type RunningService,
  SecretBox,
  type ServiceDefinition,
  startService,
  startTracing,
  tracingConfigSpec,
} from '@vigil/platform';
import { authService } from '@vigil/service/auth';
import { deliveryService } from '@vigil/service/delivery';
import { eventIngestService } from '@vigil/service/event-ingest';
import { consoleMountOf, gatewayService } from '@vigil/service/gateway';
import { pgProxyService } from '@vigil/service/pg-proxy';
import { policyService } from '@vigil/service/policy';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres';

export interface RunningSystem {
  gatewayUrl: string;
  services: RunningService[];
  mode: { database: 'embedded' | 'external'; bus: 'memory' | 'kafka' };
  /** The start-up banner: addresses, data folder, and what services asked to show once. */
  banner: { title: string; sections: BannerSection[] };
  /** Prints the banner: plain text on a terminal, one structured log line otherwise. */
  announce(): void;
  /** The launcher's own logger (service `standalone`). */
  logger: Logger;
  stop(): Promise<void>;
}

/** The launcher's own variables (the services validate theirs, the same ones among them). */
const launcherConfigSpec = { LOG_LEVEL: commonConfigSpec.LOG_LEVEL, LOG_FORMAT: commonConfigSpec.LOG_FORMAT };

/** How a person reaches a server listening on `host`: a wildcard address means this machine. */
function publicBaseUrl(host: string | undefined, port: number): string {
  const name = !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * Where alert links (`<DASHBOARD_URL>/alerts/<id>`) point when DASHBOARD_URL is unset: this system's
 * own console, at PUBLIC_URL or else the gateway's address (unknown before it binds when PORT is 0:
 * delivery's default then applies).
 */
export function dashboardUrl(env: Env): string | undefined {
  if (env.DASHBOARD_URL) return env.DASHBOARD_URL;
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, '');
  const port = Number(env.PORT || 3000);
  return port > 0 ? publicBaseUrl(env.HOST, port) : undefined;
}

/**
 * Addresses, then the data folder, then the services' notices (on a first start, the generated
 * administrator password). A line is shown only for something served: the web console's line
 * appears when the gateway found a built console.
 */
function startBanner(
  baseUrl: string,
  dataDir: string,
  services: RunningService[],
  consoleServed: boolean,
  proxy?: { listen: string; upstream: string },
): RunningSystem['banner'] {
  return {
    title: 'Vigil is running',
    sections: [
      [
        ...(consoleServed ? [{ label: 'Console', value: `${baseUrl}/`, field: 'console_url' }] : []),
        { label: 'API', value: baseUrl, field: 'api_url' },
        { label: 'API docs', value: `${baseUrl}/v1/docs`, field: 'docs_url' },
        { label: 'OpenAPI', value: `${baseUrl}/v1/openapi.json`, field: 'openapi_url' },
        ...(proxy ? [{ label: 'PostgreSQL proxy', value: `${proxy.listen} -> ${proxy.upstream}`, field: 'pg_proxy' }] : []),
      ],
      [{ label: 'Data folder', value: dataDir, field: 'data_dir' }],
      services.flatMap((service) => service.context.notices.list()),
    ],
  };
}

const INTERNAL = [
  { definition: authService, key: 'AUTH', http: 3001, rpc: 4001 },
  { definition: policyService, key: 'POLICY', http: 3002, rpc: 4002 },
  { definition: eventIngestService, key: 'EVENT_INGEST', http: 3003, rpc: 4003 },
  { definition: deliveryService, key: 'DELIVERY', http: 3004, rpc: 4004 },
] as const;

function encryptionKey(dataDir: string): string {
  const file = join(dataDir, 'encryption.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = SecretBox.generateKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/**
 * The PostgreSQL audit proxy's settings inside the standalone process, when PROXY_UPSTREAM names a
 * server: its health port is PG_PROXY_PORT (3005; PORT is the gateway's), clients connect on
 * 127.0.0.1 unless PROXY_LISTEN_HOST says otherwise, it reads policies from this process's policy
 * service and spills into the data folder. Its catalog connection may log in as a privileged role
 * (PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE defaults to true here: a trial against one's own server with
 * its `postgres` role; the proxy still logs what the role can do). Every other PROXY_* variable
 * applies as documented.
 */
export function proxyEnv(env: Env, dataDir: string, policyRpcAddress: string): Env | undefined {
  if (!env.PROXY_UPSTREAM?.trim()) return undefined;
  return {
    ...env,
    HOST: '127.0.0.1',
    PORT: env.PG_PROXY_PORT ?? '3005',
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: env.PG_PROXY_METRICS_PORT ?? '',
    PROXY_LISTEN_HOST: env.PROXY_LISTEN_HOST ?? '127.0.0.1',
    PROXY_SPILL_DIR: env.PROXY_SPILL_DIR ?? join(dataDir, 'pg-proxy-spill'),
    PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE: env.PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE ?? 'true',
    POLICY_RPC_ADDRESS: policyRpcAddress,
  };
}

/**
 * The whole system in one process, the same services as in distributed mode: an embedded
 * PostgreSQL when DATABASE_URL is unset, the in-process bus when KAFKA_BROKERS is unset, and the
 * PostgreSQL audit proxy when PROXY_UPSTREAM is set (proxyEnv).
 * Internal services listen on 127.0.0.1 only; `<SERVICE>_PORT` / `<SERVICE>_RPC_PORT` /
 * `<SERVICE>_METRICS_PORT` move them (metrics default to the HTTP port + 6000: 9001-9004), and
 * `<SERVICE>_DATABASE_URL` gives one its own role instead of DATABASE_URL's.
 */
export interface SystemOptions {
  /**
   * The CA that issues each service's RPC certificate. Unset: a new one at every start, held in
   * memory only (a test gives its own, to start more services beside the system).
   */
  rpcAuthority?: RpcAuthority;
}

/**
 * Each service's RPC identity in this process: a certificate for its name from a CA made at start
 * (never written anywhere), so the services authenticate each other with no configuration. With
 * RPC_INSECURE=true, none (plain TCP, no identities).
 */
function rpcIdentities(env: Env, options: SystemOptions): ((service: string) => RpcCredentials | undefined) {
  if (/^(true|1|yes)$/i.test(env.RPC_INSECURE?.trim() ?? '')) return () => undefined;
  const authority = options.rpcAuthority ?? createRpcAuthority(`vigil-standalone-${process.pid}`, 30);
  return (service) => ({ identity: service, ca: authority.cert, ...issueRpcCertificate(authority, service, 30) });
}

export async function startSystem(source: Env, options: SystemOptions = {}): Promise<RunningSystem> {
  const launcherConfig = loadConfig('standalone', launcherConfigSpec, source);
  const logger = createLogger('standalone', launcherConfig.LOG_LEVEL, launcherConfig.LOG_FORMAT);
  const dataDir = resolve(source.VIGIL_DATA_DIR ?? '.data');
  // Checked before anything starts (the services check it again with the rest of their variables).
  const tracingConfig = loadConfig('standalone', tracingConfigSpec, source);
  let embedded: EmbeddedDatabase | undefined;
  const env: Env = { ...source };
  if (!env.DATABASE_URL) {
    embedded = await startEmbeddedPostgres(dataDir, Number(env.EMBEDDED_POSTGRES_PORT ?? 5488), logger);
    env.DATABASE_URL = embedded.url;
  }
  // One process, one role (the embedded server's superuser, or the DATABASE_URL given): the
  // services' refusal of a privileged role is for the distributed deployment. The append-only
  // triggers apply whatever the role.
  env.DATABASE_ALLOW_PRIVILEGED_ROLE ??= 'true';
  env.VIGIL_ENCRYPTION_KEYS ??= encryptionKey(dataDir);
  env.DASHBOARD_URL ??= dashboardUrl(env);
  const rpcCredentials = rpcIdentities(env, options);
  const memoryBus = env.KAFKA_BROKERS ? undefined : sharedMemoryBus();
  memoryBus?.pause();
  // One tracer provider for the whole process (service name `vigil`): the services share it, and
  // their spans tell them apart by instrumentation scope (vigil.gateway, vigil.event-ingest, ...).
  const tracing = startTracing(tracingConfig, 'vigil', logger);

  const services: RunningService[] = [];
  let proxy: { listen: string; upstream: string } | undefined;
  const stopAll = async () => {
    // Gateway first (no new requests), then the rest in reverse start order.
    for (const service of [...services].reverse()) await service.stop().catch((error) => logger.error({ err: error }, 'stop failed'));
    await memoryBus?.close();
    await tracing.release();
    await embedded?.stop();
  };
  try {
    // Every service knows every RPC address from the start: services started earlier are reachable by
    // the later ones at once (event-ingest loads policies from policy), and the later ones by the
    // earlier ones once started (event-ingest's reports read alerts from delivery, retrying meanwhile).
    const rpcPorts = new Map(INTERNAL.map(({ key, rpc }) => [key, Number(env[`${key}_RPC_PORT`] ?? rpc)]));
    const rpcAddresses: Env = Object.fromEntries(INTERNAL.map(({ key }) => [`${key}_RPC_ADDRESS`, `127.0.0.1:${rpcPorts.get(key)}`]));
    for (const { definition, key, http } of INTERNAL) {
      services.push(
        await startService(
          definition as ServiceDefinition,
          {
            ...env,
            ...rpcAddresses,
            // `<SERVICE>_DATABASE_URL`: this service's own role, as in the distributed deployment.
            ...(env[`${key}_DATABASE_URL`] ? { DATABASE_URL: env[`${key}_DATABASE_URL`] } : {}),
            HOST: '127.0.0.1',
            PORT: env[`${key}_PORT`] ?? String(http),
            RPC_HOST: '127.0.0.1',
            RPC_PORT: String(rpcPorts.get(key)),
            // METRICS_PORT/METRICS_HOST are the gateway's; unset, an internal service's follow its
            // PORT, except that METRICS_PORT=0 (ports picked when bound) holds for every service.
            METRICS_HOST: '127.0.0.1',
            METRICS_PORT: env[`${key}_METRICS_PORT`] ?? (env.METRICS_PORT === '0' ? '0' : ''),
          },
          { rpcCredentials: rpcCredentials(definition.name) },
        ),
      );
    }
    const proxySettings = proxyEnv(env, dataDir, rpcAddresses.POLICY_RPC_ADDRESS!);
    if (proxySettings) {
      services.push(await startService(pgProxyService, proxySettings, { rpcCredentials: rpcCredentials('pg-proxy') }));
      const listen = `${proxySettings.PROXY_LISTEN_HOST}:${proxySettings.PROXY_LISTEN_PORT ?? 6432}`;
      proxy = { listen, upstream: proxySettings.PROXY_UPSTREAM! };
      logger.info({ listen, upstream: proxy.upstream }, 'PostgreSQL audit proxy started');
    }
    services.push(await startService(gatewayService, { ...env, ...rpcAddresses }, { rpcCredentials: rpcCredentials('gateway') }));
  } catch (error) {
    await stopAll();
    throw error;
  }
  memoryBus?.resume();
  const gateway = services[services.length - 1]!;
  const mode = { database: embedded ? ('embedded' as const) : ('external' as const), bus: memoryBus ? ('memory' as const) : ('kafka' as const) };
  logger.info(mode, 'all services started');
  const banner = startBanner(publicBaseUrl(env.HOST, gateway.httpPort), dataDir, services, consoleMountOf(gateway.app)?.served ?? false, proxy);
  const announce = () => printBanner(logger, resolveLogFormat(launcherConfig.LOG_FORMAT), banner.title, banner.sections);
  return { gatewayUrl: `http://127.0.0.1:${gateway.httpPort}`, services, mode, banner, announce, logger, stop: stopAll };
}
