import type { INestApplication, PipeTransform } from '@nestjs/common';
import type { Tracer } from '@opentelemetry/api';
import type { Registry } from 'prom-client';
import type { CommonConfig, ConfigOf, ConfigSpec, DatabaseConfig } from '../config/config';
import type { StartNotices } from '../logging/banner';
import type { Logger } from '../logging/logger';
import type { RpcCredentials } from '../rpc/rpc-security';
import type { Readiness } from '../health/readiness';
import type { ShutdownProgress } from './shutdown';
import type { TracingConfig } from '../tracing/tracing.config';

export const SERVICE_CONTEXT = Symbol('SERVICE_CONTEXT');
export const LOGGER = Symbol('LOGGER');
export const CONFIG = Symbol('CONFIG');
/** This service's RpcCredentials (null with RPC_INSECURE): what its RpcClients present. */
export const RPC_CREDENTIALS = Symbol('RPC_CREDENTIALS');

export type ServiceName = 'gateway' | 'auth' | 'policy' | 'event-ingest' | 'delivery' | 'pg-proxy';

export interface ServiceConfigBase extends CommonConfig, DatabaseConfig, TracingConfig {
  HOST: string;
  PORT: number;
  RPC_HOST: string;
  RPC_TLS_CA_FILE?: string;
  RPC_TLS_CERT_FILE?: string;
  RPC_TLS_KEY_FILE?: string;
  RPC_INSECURE: boolean;
  RPC_PORT: number;
  METRICS_HOST?: string;
  METRICS_PORT?: number;
}

export interface ServiceContext<C = ServiceConfigBase> {
  name: ServiceName;
  config: C & ServiceConfigBase;
  logger: Logger;
  readiness: Readiness;
  metrics: Registry;
  /** What the operator must see once the service has started (the start-up banner). */
  notices: StartNotices;
  /** Spans of this service (a no-op tracer while tracing is off). */
  tracer: Tracer;
  /** This service's RPC identity (mutual TLS); null with RPC_INSECURE. */
  rpc: RpcCredentials | null;
  /** The steps of the stop (modules record theirs): what a stop that runs out of time names. */
  shutdown: ShutdownProgress;
}

/**
 * What a service is, independent of how it is run: `main.ts` runs one definition in its own
 * process; the standalone launcher runs all five in one process. Same code path either way.
 */
export interface ServiceDefinition<S extends ConfigSpec = ConfigSpec> {
  name: ServiceName;
  /** Service-specific variables, on top of the common ones. */
  configSpec: S;
  defaultPort: number;
  /** Set when the service answers request-response calls over TCP. */
  rpcPort?: number;
  /** False for services without a schema of their own (the gateway). */
  usesDatabase: boolean;
  /** The root module, built from the validated configuration. */
  rootModule(context: ServiceContext<ConfigOf<S>>): unknown;
  /**
   * Global pipes that run before DTO validation, on the raw parameters and body (the gateway's
   * check for U+0000 and lone surrogates: some validators throw on a lone surrogate).
   */
  inputPipes?: () => PipeTransform[];
  /** Last step before listening, once every route exists (e.g. the gateway's OpenAPI document). */
  configure?(app: INestApplication, context: ServiceContext<ConfigOf<S>>): void | Promise<void>;
}
