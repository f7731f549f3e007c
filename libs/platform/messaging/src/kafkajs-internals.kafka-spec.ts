import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { spawnTs, testKafka } from '@vigil/testing';

const ROOT = resolve(__dirname, '../../../..');
const FIXTURE = 'libs/platform/messaging/src/fixtures/kafkajs-internals-fixture.ts';
const expected = { replaced: true, groupingInstalled: true, crcInstalled: true, encoderInstalled: true, received: 3000 };

function summaryOf(code: number | null, output: string) {
  expect({ code, output: code === 0 ? 'ok' : output }).toEqual({ code: 0, output: 'ok' });
  return JSON.parse(output.trim().split('\n').pop()!);
}

describe('kafkajs internals replaced in a service process (real broker)', () => {
  const kafka = testKafka();
  const env = { KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: kafka.prefix };

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
