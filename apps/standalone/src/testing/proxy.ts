import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, startService } from '@vigil/platform';
import { pgProxyService } from '@vigil/service/pg-proxy';
import { freePort, type TestDatabase, testRpcCredentials, testServerUrl } from '@vigil/testing';
import type { TestSystem } from './test-system';

export interface SystemProxy {
  service: RunningService;
  /** Where clients connect (127.0.0.1). */
  port: number;
  /** The proxy's spill folder: the caller removes it after stopping the proxy. */
  spillDir: string;
}

/**
 * The PostgreSQL audit proxy in front of `target` (the tests' PostgreSQL server), naming it
 * `databaseId`, publishing to the system's bus and reading policies from its policy service.
 * `env` adds or overrides proxy settings.
 */
export async function startProxyBehind(system: TestSystem, target: TestDatabase, databaseId: string, env: Record<string, string> = {}): Promise<SystemProxy> {
  const spillDir = mkdtempSync(join(tmpdir(), 'pg-proxy-'));
  const port = await freePort();
  const upstream = new URL(testServerUrl());
  const service = await startService(pgProxyService, {
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    METRICS_PORT: '0',
    PROXY_LISTEN_HOST: '127.0.0.1',
    PROXY_LISTEN_PORT: String(port),
    PROXY_UPSTREAM: `${upstream.hostname}:${upstream.port || 5432}`,
    PROXY_CATALOG_USER: decodeURIComponent(upstream.username || 'postgres'),
    PROXY_CATALOG_PASSWORD: decodeURIComponent(upstream.password),
    // The test server's role (a superuser): the proxy's refusal of one is tested in apps/pg-proxy.
    PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE: 'true',
    PROXY_SPILL_DIR: spillDir,
    PROXY_DATABASE_IDS: `${target.name}:${databaseId}`,
    POLICY_RPC_ADDRESS: `127.0.0.1:${system.services.find((s) => s.name === 'policy')!.context.config.RPC_PORT}`,
    ...env,
  }, { rpcCredentials: testRpcCredentials('pg-proxy') });
  return { service, port, spillDir };
}
