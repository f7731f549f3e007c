import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort, waitFor } from './net';
import { testRpcFiles } from './rpc';

const ROOT = resolve(__dirname, '../../../..');

export interface ChildService {
  process: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hooks, no offsets committed, nothing flushed. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Runs a TypeScript entry point (a service's main.ts, or a test's helper script) in its own Node
 * process, as production runs it, so a test can kill it mid-flight.
 */
export function spawnTs(entry: string, env: Record<string, string>): ChildService {
  // A service's main.ts refuses to start without RPC credentials: it gets its own from the test
  // authority, unless the test gives others (or none).
  const service = /^apps\/([a-z-]+)\/src\/main\.ts$/.exec(entry)?.[1];
  const rpc = service && service !== 'standalone' && !env.RPC_TLS_CERT_FILE && !env.RPC_INSECURE ? testRpcFiles(service) : {};
  return spawnNode(['-r', '@swc-node/register', resolve(ROOT, entry)], { ...rpc, ...env });
}

/**
 * Runs a built JavaScript entry point (a bundle under dist/ or tmp/) in its own Node process, with
 * the same defaults as `spawnTs`: what the images run, and it starts in a second or two. The caller
 * gives a service its RPC credentials (testRpcFiles).
 */
export function spawnJs(entry: string, env: Record<string, string>): ChildService {
  return spawnNode([resolve(ROOT, entry)], env);
}

function spawnNode(args: string[], env: Record<string, string>): ChildService {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // A modest pool (a service's LISTEN connections come out of it too): suites share the server.
    // Metrics on a port picked when bound unless the test names one (PORT + 6000 may be taken or out
    // of range). Tests connect as the test server's superuser, which a service refuses unless told.
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '8', METRICS_PORT: '0', DATABASE_ALLOW_PRIVILEGED_ROLE: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    process: child,
    output: () => out,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * The policy service in its own process, for suites that run event-ingest on its own: event-ingest
 * stores no record before it has loaded the policies from it (docs/policies.md#enforcement). `env`
 * gives its database, broker and encryption key; resolves once it answers ready, with the address
 * event-ingest's POLICY_RPC_ADDRESS takes.
 */
export async function spawnPolicyService(env: Record<string, string>): Promise<ChildService & { rpcAddress: string }> {
  const httpPort = await freePort();
  const rpcAddress = `127.0.0.1:${await freePort()}`;
  const child = spawnTs('apps/policy/src/main.ts', { HOST: '127.0.0.1', PORT: String(httpPort), RPC_HOST: '127.0.0.1', RPC_PORT: rpcAddress.split(':')[1]!, ...env });
  await waitFor(
    async () => {
      if (child.process.exitCode !== null) throw new Error(`the policy service exited with ${child.process.exitCode}`);
      return (await fetch(`http://127.0.0.1:${httpPort}/health/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined))?.status === 200;
    },
    150_000,
    'policy service ready',
  ).catch(async (error: Error) => {
    await child.kill();
    throw new Error(`${error.message}\n--- policy output ---\n${child.output().slice(-3000)}`);
  });
  return { ...child, rpcAddress };
}
