import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { commonConfigSpec, databaseConfigSpec, rpcSecurityConfigSpec, type ConfigOf, ConfigError, type ConfigSpec, env, type Env, loadConfig } from '../config/config';
import { Readiness } from '../health/readiness';
import { printBanner, StartNotices } from '../logging/banner';
import { createLogger, NestPinoLogger, type Logger, resolveLogFormat } from '../logging/logger';
import { createMetricsRegistry, readinessMetric } from '../metrics/metrics';
import { type MetricsServer, metricsPortFor, startMetricsServer } from '../metrics/metrics-server';
import { createValidationPipe } from '../errors/validation.pipe';
import { serviceTracer, startTracing } from '../tracing/tracing';
import { RpcCallerGuard, rpcRefusalCounter } from '../rpc/rpc-guard';
import { type RpcCredentials, rpcCredentialsFromConfig, rpcServerTls } from '../rpc/rpc-security';
import { DrainingRpcServer } from '../rpc/draining-rpc-server';
import { bodyParsers, correlationMiddleware } from './http-pipeline';
import type { ServiceContext, ServiceDefinition } from './service-context';
import { activeResources, drainHttp, ShutdownProgress, ShutdownTimedOut } from './shutdown';

/**
 * A service cannot run on what is installed (not a configuration variable): it refuses to start
 * with this message alone, no stack trace.
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefused';
  }
}

export interface RunningService {
  name: string;
  app: INestApplication;
  context: ServiceContext<unknown>;
  httpPort: number;
  /** Where `GET /metrics` answers: a port of its own, never the API port. */
  metricsPort: number;
  /**
   * Graceful stop: readiness false, stop taking requests, finish in-flight work, close. Rejects
   * with ShutdownTimedOut when it takes longer than SHUTDOWN_TIMEOUT_MS (after the drain).
   */
  stop(): Promise<void>;
}

function fullSpec(definition: ServiceDefinition) {
  return {
    ...commonConfigSpec,
    ...(definition.usesDatabase ? databaseConfigSpec : {}),
    HOST: env.string({ default: '0.0.0.0' }),
    PORT: env.port({ default: definition.defaultPort }),
    RPC_HOST: env.string({ default: '127.0.0.1', description: 'address the RPC listener binds (an IP address or host name; checked at start)' }),
    RPC_PORT: env.port({ default: definition.rpcPort ?? 0 }),
    METRICS_HOST: env.optionalString({ description: 'address of the metrics listener; default HOST' }),
    METRICS_PORT: env.optionalPort({ description: 'port of GET /metrics; default PORT + 6000 (0 when PORT is 0)' }),
    ...rpcSecurityConfigSpec,
    ...definition.configSpec,
  } satisfies ConfigSpec;
}

/** Validates the configuration of a service without starting it (throws ConfigError). */
export function loadServiceConfig<S extends ConfigSpec>(definition: ServiceDefinition<S>, source: Env) {
  // Services without a database never read DATABASE_*; the type stays uniform for the rest.
  return loadConfig(definition.name, fullSpec(definition as ServiceDefinition), source) as unknown as ConfigOf<S> &
    ServiceContext['config'];
}

export interface StartOptions {
  /**
   * This service's RPC identity, made by the launcher (the standalone process makes a CA and a
   * certificate per service at each start); without it, RPC_TLS_*_FILE or RPC_INSECURE decide.
   */
  rpcCredentials?: RpcCredentials;
}

export async function startService<S extends ConfigSpec>(
  definition: ServiceDefinition<S>,
  source: Env,
  options: StartOptions = {},
): Promise<RunningService> {
  const config = loadServiceConfig(definition, source);
  // Every service calls or answers RPC (the gateway and pg-proxy only call): no credentials, no start.
  const rpcCredentials = rpcCredentialsFromConfig(definition.name, config, options.rpcCredentials);
  const logger = createLogger(definition.name, config.LOG_LEVEL, config.LOG_FORMAT);
  const context: ServiceContext<ConfigOf<S>> = {
    name: definition.name,
    config,
    logger,
    readiness: new Readiness(),
    metrics: createMetricsRegistry(definition.name),
    notices: new StartNotices(),
    tracer: serviceTracer(definition.name),
    rpc: rpcCredentials,
    shutdown: new ShutdownProgress(),
  };
  readinessMetric(context.metrics, context.readiness);
  // Shared with the other services of a standalone process, which started it first.
  const tracing = startTracing(config, `vigil-${definition.name}`, logger);
  const app = await NestFactory.create(definition.rootModule(context) as never, {
    logger: new NestPinoLogger(logger),
    bodyParser: false,
    abortOnError: false,
  }).catch(async (error: unknown) => {
    await tracing.release();
    throw error;
  });
  let metricsServer: MetricsServer | undefined;
  let rpcServer: DrainingRpcServer | undefined;
  // A start that fails after the app exists (a port already taken, a failing configure step) closes
  // it before rethrowing: module hooks may already have opened pools, consumers and timers.
  try {
    app.use(correlationMiddleware(logger, context.metrics, context.tracer));
    app.use(bodyParsers(logger, '1100kb'));
    app.useGlobalPipes(...(definition.inputPipes?.() ?? []), createValidationPipe());
    const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void; set(k: string, v: unknown): void };
    express.disable('x-powered-by');
    // No proxy is trusted unless a service says so (the gateway's TRUST_PROXY): X-Forwarded-*
    // headers from anyone else are ignored by req.ip, req.protocol and req.hostname.
    express.set('trust proxy', false);

    if (definition.rpcPort !== undefined) {
      if (!rpcCredentials) logger.warn({ rpc_host: config.RPC_HOST }, 'RPC_INSECURE: RPC calls are neither encrypted nor authenticated');
      // Before connecting: the microservice inherits the application's global guards.
      app.useGlobalGuards(new RpcCallerGuard(definition.name, rpcCredentials !== null, logger, context.metrics));
      // Nest's TCP transport, with a stop that lets calls in flight finish (DrainingRpcServer).
      rpcServer = new DrainingRpcServer({ host: config.RPC_HOST, port: config.RPC_PORT, ...(rpcCredentials ? { tlsOptions: rpcServerTls(rpcCredentials) } : {}) });
      const microservice = app.connectMicroservice({ strategy: rpcServer }, { inheritAppConfig: true });
      if (rpcCredentials) {
        // A client without a certificate from the CA never gets past the handshake: no call, no handler.
        const refused = rpcRefusalCounter(context.metrics);
        microservice.on('tlsClientError', (error: Error & { code?: string }, socket: { remoteAddress?: string }) => {
          refused.inc({ caller: 'none', pattern: 'none', reason: 'unauthenticated' });
          logger.warn({ caller: null, pattern: null, reason: 'unauthenticated', remote_address: socket?.remoteAddress, error: error.code ?? error.message }, 'rpc connection refused');
        });
      }
      await app.startAllMicroservices();
    }
    await definition.configure?.(app, context);
    await app.listen(config.PORT, config.HOST);
    const metricsPort = metricsPortFor(config.METRICS_PORT, config.PORT);
    if (metricsPort > 65535) {
      throw new ConfigError(definition.name, [{ variable: 'METRICS_PORT', message: `must be set when PORT + 6000 is not a port (PORT is ${config.PORT})` }]);
    }
    metricsServer = await startMetricsServer(context.metrics, config.METRICS_HOST ?? config.HOST, metricsPort);
  } catch (error) {
    await metricsServer?.close();
    await app.close().catch((closeError: unknown) => logger.error({ err: closeError }, 'closing after a failed start failed'));
    await tracing.release();
    throw error;
  }
  const server = app.getHttpServer() as Server;
  const address = server.address();
  const httpPort = typeof address === 'object' && address ? address.port : config.PORT;
  const metrics = metricsServer!;
  logger.info(
    { port: httpPort, metrics_port: metrics.port, rpc_port: definition.rpcPort !== undefined ? config.RPC_PORT : undefined },
    'service started',
  );

  let stopping: Promise<void> | undefined;
  const rpc = rpcServer;
  const progress = context.shutdown;
  const stop = () =>
    (stopping ??= (async () => {
      context.readiness.markShuttingDown();
      const timeoutMs = config.SHUTDOWN_TIMEOUT_MS;
      logger.info({ drain_ms: config.SHUTDOWN_DRAIN_MS, timeout_ms: timeoutMs }, 'shutting down');
      if (config.SHUTDOWN_DRAIN_MS > 0) await new Promise((r) => setTimeout(r, config.SHUTDOWN_DRAIN_MS));
      const began = Date.now();
      const sequence = (async () => {
        // Stop accepting connections first, on both listeners. RPC calls in flight are answered,
        // then every RPC connection closes (a caller connects again on its next call, to another
        // replica), before the module hooks run: nothing calls into a service whose consumers,
        // outbox and pool are closing. HTTP requests in flight go on while the hooks run (some end
        // only there: the gateway's event streams) and finish before the pool closes; every HTTP
        // connection, kept-alive ones included, is closed once idle, and cut at the bound.
        const inFlightMs = Math.floor(timeoutMs / 2);
        const http = progress.step('HTTP requests in flight', () => drainHttp(server, inFlightMs));
        const calls = rpc ? await progress.step('RPC calls in flight', () => rpc.drain(inFlightMs), () => rpc.state()) : undefined;
        // Consumers stop (offsets committed), the outbox drains, the bus and the pool close.
        await progress.step('module shutdown hooks', () => app.close());
        const { connectionsCut } = await http;
        if (connectionsCut || calls?.connectionsCut) {
          logger.warn(
            { wait_ms: inFlightMs, http_connections_cut: connectionsCut, rpc_connections_cut: calls?.connectionsCut ?? 0, rpc_calls_cut: calls?.callsCut ?? 0 },
            'requests still in flight at shutdown were cut; their callers retry',
          );
        }
        // Metrics answer through the drain and the shutdown hooks, so the last scrape sees them.
        await progress.step('metrics listener', () => metrics.close());
        // Last: spans of the work finished during shutdown are flushed too.
        await progress.step('tracing flush', () => tracing.release());
      })();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
      const outcome = await Promise.race([sequence.then(() => 'done' as const), late]).finally(() => clearTimeout(timer));
      if (outcome === 'late') {
        // Whatever the sequence does later, the process does not wait for it.
        sequence.catch(() => undefined);
        logger.error(
          {
            timeout_ms: timeoutMs,
            waiting_on: progress.report(),
            rpc: rpc?.state(),
            active_resources: activeResources(),
          },
          'shutdown did not finish within SHUTDOWN_TIMEOUT_MS; exiting with what it was still waiting on',
        );
        throw new ShutdownTimedOut(definition.name, timeoutMs);
      }
      logger.info({ took_ms: Date.now() - began }, 'stopped');
    })());
  return { name: definition.name, app, context, httpPort, metricsPort: metrics.port, stop };
}

/**
 * Process entry point of one service: validates configuration (naming every bad variable, then
 * exit 1), starts it, and stops it gracefully on SIGTERM/SIGINT.
 */
export async function runServiceMain<S extends ConfigSpec>(definition: ServiceDefinition<S>): Promise<void> {
  let running: RunningService;
  try {
    if (!process.env.KAFKA_BROKERS?.trim()) {
      // The in-process bus only connects services inside one process (npm start).
      throw new ConfigError(definition.name, [
        { variable: 'KAFKA_BROKERS', message: 'is required when a service runs in its own process (npm start runs the standalone system without Kafka)' },
      ]);
    }
    running = await startService(definition, process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    if (error instanceof StartRefused) {
      process.stderr.write(`${definition.name}: refusing to start: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${definition.name}: failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  }
  announceNotices(running);
  installShutdown([running], running.context.logger);
}

/**
 * A service running in its own process shows what it has to tell its operator (e.g. a generated
 * administrator password) in a short banner once it has started; the standalone launcher gathers
 * every service's notices into its own banner instead.
 */
export function announceNotices(running: RunningService): void {
  const notices = running.context.notices.list();
  if (notices.length === 0) return;
  const { logger, config } = running.context;
  printBanner(logger, resolveLogFormat(config.LOG_FORMAT), `${running.name} started`, [notices]);
}

/** Stops the given services in order on SIGTERM/SIGINT, then exits; a second signal forces exit. */
export function installShutdown(services: { stop(): Promise<void> }[], logger: Logger, after?: () => Promise<void>) {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    signalled = true;
    logger.info({ signal }, 'signal received');
    void (async () => {
      let code = 0;
      for (const service of services) {
        try {
          await service.stop();
        } catch (error) {
          code = 1;
          logger.error({ err: error }, 'error during shutdown');
        }
      }
      await after?.().catch((error) => logger.error({ err: error }, 'error during shutdown'));
      process.exit(code);
    })();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
