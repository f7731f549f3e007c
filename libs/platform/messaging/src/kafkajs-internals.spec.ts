import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartRefused } from '@vigil/platform';
import {
  checkKafkajsInternals,
  crc32c,
  EXPECTED_KAFKAJS,
  groupMessagesPerPartition,
  idleQuietRequestQueue,
  kafkajsInternalPaths,
  kafkajsInternalsProblems,
  kafkajsRoot,
  poolingEncoder,
  recordEncoder,
} from './kafkajs-internals';
import { assertKafkajsInternals, KafkajsInternalsMismatch } from './kafkajs-pin';

// kafkajs's own implementations, loaded from its files (jest's module registry is separate from
// the cache the replacement writes to, so these are the originals).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const originalCrc = require(kafkajsInternalPaths().crc32c) as (b: Buffer) => number;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const originalGroup = require(kafkajsInternalPaths().groupMessagesPerPartition) as typeof groupMessagesPerPartition;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const OriginalEncoder = require(kafkajsInternalPaths().encoder);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const originalRecord = require(kafkajsInternalPaths().record) as (fields: object) => { buffer: Buffer };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const OriginalRequestQueue = require(kafkajsInternalPaths().requestQueue);

describe('kafkajs internals replacements', () => {
  it('encode the same bytes as kafkajs with pooled buffers, growing past the first buffer', () => {
    const Pooling = poolingEncoder(OriginalEncoder);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs's Encoder has no types
    const write = (encoder: any) =>
      encoder
        .writeVarInt(300)
        .writeInt8(0)
        .writeVarLong(123456789)
        .writeVarIntBytes(Buffer.from('key'))
        .writeVarIntBytes(Buffer.from('v'.repeat(2000)))
        .writeInt64(42)
        .writeString('headers')
        .writeVarIntArray([(new Pooling() as any).writeVarIntString('h').writeVarIntBytes(Buffer.from('x'))]).buffer as Buffer;
    // Dirty the pool first: uninitialised memory must never show in the output.
    Buffer.allocUnsafe(4000).fill(0xab);
    const expected = write(new OriginalEncoder());
    expect(write(new Pooling())).toEqual(expected);
    expect(write(new Pooling(10))).toEqual(expected);
    expect(Pooling.nextPowerOfTwo(511)).toBe(512);
    // Varints of every length, both signs (zigzag), as kafkajs encodes them.
    const values = [0, 1, -1, 63, -64, 64, 127, 128, 8191, 8192, 16383, 16384, 2 ** 20, 2 ** 27 - 1, 2 ** 28, 2 ** 30, 2 ** 31 - 1, -(2 ** 31)];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs's Encoder has no types
    const varints = (encoder: any) => values.reduce((e, v) => e.writeVarInt(v).writeUVarInt(Math.abs(v) >>> 0), encoder).buffer as Buffer;
    expect(varints(new Pooling(1))).toEqual(varints(new OriginalEncoder()));
  });

  it('encode records byte for byte as kafkajs does, written once into one buffer', () => {
    const single = recordEncoder(originalRecord);
    const bytesOf = (r: unknown) => (r as { buffer: Buffer }).buffer;
    // Dirty the pool first: uninitialised memory must never show in the output.
    Buffer.allocUnsafe(8000).fill(0xcd);
    const cases: object[] = [
      {},
      { key: null, value: null },
      { key: 'db_shop', value: '{"id":"pgp_1"}', headers: { 'message-id': 'pgp_1', 'event-type': 'database.query', producer: 'pg-proxy@host' } },
      { key: Buffer.from('k'), value: Buffer.from([0, 1, 2, 255]), offsetDelta: 499, timestampDelta: 3 },
      { key: 'ключ', value: `${'é'.repeat(70)}${'€'.repeat(3000)}😀`, offsetDelta: 20_000, timestampDelta: 2 ** 40 + 5 },
      { key: '42', value: 'v', headers: { many: ['a', 'b', 'ü'], empty: '', buf: Buffer.from('raw') }, offsetDelta: 2 ** 29, timestampDelta: 0 },
      { key: '', value: '', headers: {}, offsetDelta: 127, timestampDelta: 63 },
      { key: 'k', value: 'x'.repeat(16_384), offsetDelta: 128, timestampDelta: 64 },
    ];
    for (const fields of cases) expect(bytesOf(single(fields))).toEqual(originalRecord(fields).buffer);
    // A timestamp delta that is not a safe integer goes to kafkajs's own encoder (which refuses a fraction).
    const odd = { key: 'k', value: 'v', timestampDelta: 1.5 };
    expect(() => originalRecord(odd)).toThrow(/cannot be converted to a BigInt/);
    expect(() => single(odd)).toThrow(/cannot be converted to a BigInt/);
  });

  it('compute CRC-32C: the standard check value and the same results as kafkajs', () => {
    expect(crc32c(Buffer.from('123456789')).toString(16)).toBe('e3069283');
    for (const size of [0, 1, 7, 8, 9, 15, 16, 17, 1000, 65_537]) {
      const buffer = randomBytes(size);
      expect(crc32c(buffer)).toBe(originalCrc(buffer));
    }
    // A view into a larger buffer (kafkajs checksums slices).
    const backing = randomBytes(100);
    const view = backing.subarray(3, 90);
    expect(crc32c(view)).toBe(originalCrc(view));
  });

  it('group messages by partition exactly as kafkajs does, in order', () => {
    const messages = Array.from({ length: 50 }, (_, i) => ({ key: `k${i % 7}`, value: String(i) }));
    const partitioner = ({ message }: { message: unknown }) => Number((message as { key: string }).key.slice(1)) % 3;
    const args = { topic: 't', partitionMetadata: [{}, {}, {}], messages, partitioner };
    expect(groupMessagesPerPartition(args)).toEqual(originalGroup(args));
    expect(groupMessagesPerPartition({ ...args, partitionMetadata: [] })).toEqual({});
  });
});

describe('the request queue replacement', () => {
  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const queues: { destroy(): void }[] = [];
  type Queue = InstanceType<typeof OriginalRequestQueue> & {
    throttleCheckTimeoutId: NodeJS.Timeout | null;
    pending: unknown[];
    maybeThrottle(ms: number): void;
    fulfillRequest(response: { correlationId: number; payload: Buffer | null; size: number }): void;
    push(request: { entry: { correlationId: number; resolve: () => void; reject: () => void }; expectResponse: boolean; sendRequest: () => void }): void;
  };
  const make = (Class: new (options: object) => Queue, maxInFlightRequests = 1) => {
    const queue = new Class({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:9092', logger: silent });
    queues.push(queue);
    return queue;
  };
  const Quiet = idleQuietRequestQueue(OriginalRequestQueue) as unknown as new (options: object) => Queue;
  const request = (correlationId: number, sent: number[]) => ({ entry: { correlationId, resolve: () => undefined, reject: () => undefined }, expectResponse: true, sendRequest: () => sent.push(correlationId) });
  afterEach(() => queues.splice(0).forEach((q) => q.destroy()));

  it('arms no timer once the last answer is in (kafkajs arms one that re-arms itself every millisecond)', () => {
    for (const [Class, armed] of [
      [OriginalRequestQueue, true],
      [Quiet, false],
    ] as const) {
      const queue = make(Class);
      const sent: number[] = [];
      queue.push(request(1, sent));
      queue.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
      expect({ sent, armed: queue.throttleCheckTimeoutId !== null }).toEqual({ sent: [1], armed });
    }
  });

  it('sends waiting requests as kafkajs does: the next one as each answer comes, and after a throttle ends', async () => {
    const queue = make(Quiet);
    const sent: number[] = [];
    queue.push(request(1, sent));
    queue.push(request(2, sent));
    queue.push(request(3, sent));
    expect({ sent, waiting: queue.pending.length, armed: queue.throttleCheckTimeoutId !== null }).toEqual({ sent: [1], waiting: 2, armed: true });
    queue.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
    expect(sent).toEqual([1, 2]);
    queue.fulfillRequest({ correlationId: 2, payload: null, size: 0 });
    queue.fulfillRequest({ correlationId: 3, payload: null, size: 0 });
    // The check armed while requests waited runs once more, finds none, and arms no other.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ sent, armed: queue.throttleCheckTimeoutId !== null }).toEqual({ sent: [1, 2, 3], armed: false });

    // Throttled by the broker: a request waits, and goes when the throttle is over.
    const throttled = make(Quiet, 5);
    const later: number[] = [];
    throttled.maybeThrottle(30);
    throttled.push(request(7, later));
    expect(later).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect({ later, armed: throttled.throttleCheckTimeoutId !== null }).toEqual({ later: [7], armed: false });
  });
});

describe('the kafkajs pin', () => {
  let fake: string;

  /** A copy of the installed package's checked files, as another install would present them. */
  beforeEach(() => {
    fake = mkdtempSync(join(tmpdir(), 'vigil-kafkajs-'));
    for (const file of ['package.json', ...Object.keys(EXPECTED_KAFKAJS.files)]) cpSync(join(kafkajsRoot(), file), join(fake, file));
  });

  afterEach(() => rmSync(fake, { recursive: true, force: true }));

  it('passes the installed kafkajs, and an exact copy of its replaced files', () => {
    expect(kafkajsInternalsProblems).toEqual([]);
    expect(checkKafkajsInternals()).toEqual([]);
    expect(checkKafkajsInternals(fake)).toEqual([]);
    expect(() => assertKafkajsInternals()).not.toThrow();
    expect(() => assertKafkajsInternals(checkKafkajsInternals(fake), fake)).not.toThrow();
  });

  it('refuses a modified replaced file, naming the file, and says how to fix the install', () => {
    appendFileSync(join(fake, 'src/protocol/encoder.js'), '\n// patched\n');
    const problems = checkKafkajsInternals(fake);
    expect(problems).toEqual([expect.stringMatching(/^src\/protocol\/encoder\.js has SHA-256 [0-9a-f]{64}, expected 9977889e/)]);
    let refusal: unknown;
    try {
      assertKafkajsInternals(problems, fake);
    } catch (error) {
      refusal = error;
    }
    // StartRefused: the service prints this message alone and exits 1.
    expect(refusal).toBeInstanceOf(KafkajsInternalsMismatch);
    expect(refusal).toBeInstanceOf(StartRefused);
    const message = (refusal as Error).message;
    expect(message).toContain(`kafkajs at ${fake} is not the release whose internals Vigil replaces (kafkajs 2.2.4`);
    expect(message).toContain('src/protocol/encoder.js has SHA-256');
    expect(message).toContain('npm install kafkajs@2.2.4 --save-exact');
  });

  it('refuses another version and a missing file', () => {
    writeFileSync(join(fake, 'package.json'), JSON.stringify({ name: 'kafkajs', version: '2.3.0' }));
    rmSync(join(fake, 'src/producer/groupMessagesPerPartition.js'));
    expect(checkKafkajsInternals(fake)).toEqual([
      'installed version is 2.3.0, expected 2.2.4',
      'src/producer/groupMessagesPerPartition.js is missing',
    ]);
    expect(() => assertKafkajsInternals(checkKafkajsInternals(fake), fake)).toThrow(/installed version is 2\.3\.0, expected 2\.2\.4; src\/producer\/groupMessagesPerPartition\.js is missing\. Install the pinned version/);
  });
});
