import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startTcpProxy, type TcpProxy, type TestKafka, waitFor } from '@vigil/testing';

const ROOT = resolve(__dirname, '../../../..');
const run = promisify(execFile);

export interface PrivateKafka {
  /** What clients are given: the relay's address (the broker advertises it), a topic prefix, no security. */
  kafka: TestKafka;
  /** The relay every client reaches the broker through: cut it and the broker is unreachable to them. */
  relay: TcpProxy;
  /** The broker's pid (from scripts/kafka.sh's pid file), or undefined when it is not running. */
  pid(): number | undefined;
  /** (Re)starts the broker with scripts/kafka.sh and waits until it serves metadata (through the relay). */
  start(): Promise<void>;
  /** SIGKILL: no shutdown, no flush; waits until the process is gone. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a hung broker, connections open and nothing answered. */
  pause(): void;
  resume(): void;
  /** Stops the broker (whatever state it is in) and the relay, and removes its folder. */
  close(): Promise<void>;
}

/**
 * A broker of the suite's own (scripts/kafka.sh on free ports and a folder of its own, the jars from
 * the shared cache), so a test can kill it or make it unreachable without touching the broker every
 * other suite shares. The broker listens on one port and advertises a relay's port: every client,
 * after bootstrap too, talks to the broker through the relay, so cutting the relay cuts them all off
 * (a relay in front of a broker advertising its own address would be bypassed after bootstrap).
 */
export async function startPrivateKafka(): Promise<PrivateKafka> {
  const folder = mkdtempSync(join(ROOT, 'tmp', 'private-kafka-'));
  const port = await freePort();
  const controllerPort = await freePort();
  const relay = await startTcpProxy('127.0.0.1', port);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(controllerPort),
    KAFKA_ADVERTISED_PORT: String(relay.port),
    KAFKA_BROKER_DIR: join(folder, 'broker'),
    KAFKA_HEAP_OPTS: process.env.KAFKA_HEAP_OPTS ?? '-Xms128m -Xmx384m',
    KAFKA_STOP_SECS: '20',
    // A restart on a busy 2-core machine took more than the default 90 s.
    KAFKA_WAIT_SECS: '300',
  };
  delete env.KAFKA_SASL_SSL_PORT;
  delete env.KAFKA_VERSION;
  const script = (command: string) =>
    run('bash', [join(ROOT, 'scripts/kafka.sh'), command], { cwd: ROOT, env, timeout: 300_000, maxBuffer: 4 * 1024 * 1024 }).catch((error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`scripts/kafka.sh ${command} failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
  const pid = () => {
    try {
      const value = Number(readFileSync(join(folder, 'broker', 'kafka.pid'), 'utf8').trim());
      return alive(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const broker: PrivateKafka = {
    kafka: { brokers: [`127.0.0.1:${relay.port}`], prefix: `t${Date.now().toString(36)}-`, env: {} },
    relay,
    pid,
    start: async () => {
      await script('start');
    },
    kill: async () => {
      const value = pid();
      if (!value) return;
      process.kill(value, 'SIGKILL');
      await waitFor(() => !alive(value), 30_000, 'the killed broker gone');
    },
    pause: () => {
      const value = pid();
      if (value) process.kill(value, 'SIGSTOP');
    },
    resume: () => {
      const value = pid();
      if (value) process.kill(value, 'SIGCONT');
    },
    close: async () => {
      broker.resume();
      await script('stop').catch(async () => broker.kill());
      await relay.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await broker.start();
  } catch (error) {
    await broker.close().catch(() => undefined);
    throw error;
  }
  return broker;
}

/** Running, stopped or sleeping: not gone and not a zombie (kill -0 succeeds for a zombie too). */
function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
