import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '@vigil/platform';
import { spawnTs, testKafka } from '@vigil/testing';
import { KafkaBus } from './kafka-bus';
import { installedKafkajsInternals, kafkajsInternalPaths, kafkajsInternalsProblems } from './kafkajs-internals';

const ROOT = resolve(__dirname, '../../../..');
const FIXTURE = 'libs/platform/messaging/src/fixtures/kafkajs-internals-fixture.ts';
const expected = { replaced: true, groupingInstalled: true, crcInstalled: true, encoderInstalled: true, recordInstalled: true, requestQueueInstalled: true, received: 3000 };

function summaryOf(code: number | null, output: string) {
  expect({ code, output: code === 0 ? 'ok' : output }).toEqual({ code: 0, output: 'ok' });
  return JSON.parse(output.trim().split('\n').pop()!);
}

describe('kafkajs internals replaced in a service process (real broker)', () => {
  const kafka = testKafka();
  const env = { KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: kafka.prefix };

  it('are what kafkajs gets inside a jest Kafka suite too (tools/jest/kafkajs-internals.js), and the broker accepts what they encode', async () => {
    expect(kafkajsInternalsProblems).toEqual([]);
    // jest's registry, which kafkajs's own relative requires go through in this process.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const load = (path: string) => require(path) as unknown;
    expect(installedKafkajsInternals(load)).toEqual({ groupingInstalled: true, crcInstalled: true, encoderInstalled: true, recordInstalled: true, requestQueueInstalled: true });
    // Loaded through kafkajs's own entry point, which requires the replaced modules by relative path.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(typeof (require(kafkajsInternalPaths().main) as { Kafka: unknown }).Kafka).toBe('function');
    expect(installedKafkajsInternals(load)).toEqual({ groupingInstalled: true, crcInstalled: true, encoderInstalled: true, recordInstalled: true, requestQueueInstalled: true });

    // A multi-partition batch the broker checks (a wrong CRC-32C or a malformed record is refused).
    const bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'internals-in-jest', prefix: `${kafka.prefix}jest-`, logger: createLogger('test', 'error') });
    try {
      await bus.ensureTopics([{ name: 'internals', partitions: 3 }]);
      const count = 500;
      const received = new Set<string>();
      const done = new Promise<void>((resolve) => {
        void bus.subscribe({
          groupId: 'internals-reader',
          topics: ['internals'],
          handler: async (messages) => {
            for (const m of messages) received.add(m.value);
            if (received.size >= count) resolve();
          },
        });
      });
      await bus.publish([{ topic: 'internals', messages: Array.from({ length: count }, (_, i) => ({ key: `db_${i % 11}`, value: `message ${i} ${'y'.repeat(i % 700)}`, headers: { n: String(i) } })) }]);
      await done;
      expect(received.size).toBe(count);
    } finally {
      await bus.close();
    }
  }, 60_000);

  it('are installed before kafkajs loads, and the broker accepts the batches they checksum', async () => {
    const child = spawnTs(FIXTURE, env);
    const code = await child.exited;
    expect(summaryOf(code, child.output())).toEqual(expected);
  }, 90_000);

  it('are installed in Node\'s module cache when bundled as the service images bundle (webpack)', async () => {
    // Inside the repository, so the bundle's npm packages resolve from its node_modules as in an image.
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    const out = mkdtempSync(join(ROOT, 'dist', 'bundle-test-'));
    try {
      const webpack = join(ROOT, 'node_modules/.bin/webpack');
      await promisify(execFile)(webpack, ['--config', 'tools/webpack.app.config.js', '--env', 'app=kafkajs-internals-fixture', '--env', `entry=${FIXTURE}`, '--output-path', out], { cwd: ROOT });
      const child = spawn(process.execPath, [join(out, 'main.js')], { cwd: out, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const code = await new Promise<number | null>((done) => child.on('exit', done));
      expect(summaryOf(code, output)).toEqual(expected);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
