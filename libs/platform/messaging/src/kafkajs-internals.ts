/**
 * Five kafkajs internals replaced before kafkajs loads (kafkajs 2.2.4 has had no release since
 * 2023, so they do not move). Producing large batches, as the audit.events.v1 relay does, spent
 * most of its client time in them:
 *
 * - `producer/groupMessagesPerPartition.js` groups a batch by partition with an array spread per
 *   message (quadratic in the batch size); replaced by a linear grouping with the same output.
 * - `protocol/recordBatch/crc32C` checksums every record batch one byte at a time; replaced by a
 *   slice-by-8 CRC-32C (same polynomial, same results, about three times faster).
 * - `protocol/encoder.js` zero-fills a fresh 512-byte buffer for every record and every header
 *   it encodes, and allocates a Buffer for every varint; a subclass takes buffers uninitialised
 *   from Node's buffer pool and writes varints in place. Safe because an encoder only ever
 *   exposes `buf.slice(0, offset)` and writes every byte below `offset`.
 *
 * - `protocol/recordBatch/record/v0` encodes each record through an Encoder per header and a
 *   Buffer per varint, sizing every header twice and copying each piece into the record; replaced
 *   by a single-pass encoder writing the same bytes into one buffer (`recordEncoder`). The capture
 *   path of pg-proxy sends thousands of small records per second through it.
 *
 * - `network/requestQueue` re-arms a timer after every response of every connection, even with
 *   nothing waiting: its delay is then `throttledUntil - Date.now()`, about minus the epoch, which
 *   Node runs after 1 ms (printing TimeoutNegativeWarning once), and each run arms the next. Every
 *   broker connection that had answered once woke its process a thousand times a second for good.
 *   A subclass arms the check only while requests wait (when it does, as kafkajs does).
 *
 * All five are installed into Node's module cache under kafkajs's own paths, so kafkajs's `require`
 * finds them. This module must be imported before anything imports kafkajs: `kafka-bus.ts`, the
 * only importer in services, imports it first, and `kafkajsInternalsReplaced` says whether it took
 * effect. (Jest never reads Node's module cache: its Kafka suites get the same replacements through
 * `kafkajsReplacements`, registered by tools/jest/kafkajs-internals.js.)
 *
 * The replacements are written against these exact files, so package.json pins `"kafkajs": "2.2.4"`
 * and the installed files are checked (version and SHA-256 of each replaced file) before anything
 * is installed: if they differ, nothing is replaced and every service refuses to start
 * (`assertKafkajsInternals` in kafkajs-pin.ts, called when a service creates its message bus)
 * rather than run kafkajs with pieces of another version. This module imports nothing that could
 * load kafkajs before it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

type Partitioner = (args: { topic: string; partitionMetadata: unknown[]; message: unknown }) => number;

export function groupMessagesPerPartition({
  topic,
  partitionMetadata,
  messages,
  partitioner,
}: {
  topic: string;
  partitionMetadata: unknown[];
  messages: unknown[];
  partitioner: Partitioner;
}): Record<number, unknown[]> {
  if (partitionMetadata.length === 0) return {};
  const result: Record<number, unknown[]> = {};
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    (result[partition] ??= []).push(message);
  }
  return result;
}

const TABLE = (() => {
  const table = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = table[n]!;
    for (let t = 1; t < 8; t++) {
      c = table[c & 0xff]! ^ (c >>> 8);
      table[t * 256 + n] = c;
    }
  }
  return table;
})();

/** CRC-32C (Castagnoli) of a buffer, as an unsigned 32-bit integer; slice-by-8. */
export function crc32c(buffer: Uint8Array): number {
  const T = TABLE;
  let crc = -1;
  let i = 0;
  const length = buffer.length;
  const end8 = length - (length & 7);
  for (; i < end8; i += 8) {
    const a = crc ^ (buffer[i]! | (buffer[i + 1]! << 8) | (buffer[i + 2]! << 16) | (buffer[i + 3]! << 24));
    crc =
      T[1792 + (a & 0xff)]! ^
      T[1536 + ((a >>> 8) & 0xff)]! ^
      T[1280 + ((a >>> 16) & 0xff)]! ^
      T[1024 + (a >>> 24)]! ^
      T[768 + buffer[i + 4]!]! ^
      T[512 + buffer[i + 5]!]! ^
      T[256 + buffer[i + 6]!]! ^
      T[buffer[i + 7]!]!;
  }
  for (; i < length; i++) crc = T[(crc ^ buffer[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

interface EncoderClass {
  new (initialSize?: number): { buf: Buffer; offset: number };
  nextPowerOfTwo(value: number): number;
}

/** kafkajs's Encoder, with buffers from the pool rather than zero-filled (exported for tests). */
export function poolingEncoder(Original: EncoderClass): EncoderClass {
  return class Encoder extends Original {
    static readonly pooling = true;

    constructor(initialSize = 511) {
      super(0);
      this.buf = Buffer.allocUnsafe(Original.nextPowerOfTwo(initialSize));
    }

    ensureAvailable(length: number) {
      if (this.offset + length > this.buf.length) {
        const grown = Buffer.allocUnsafe(Original.nextPowerOfTwo(this.offset + length));
        this.buf.copy(grown, 0, 0, this.offset);
        this.buf = grown;
      }
    }

    /** LEB128 as kafkajs writes it, straight into the buffer (kafkajs makes a Buffer per varint). */
    writeUVarInt(value: number) {
      this.ensureAvailable(5);
      while ((value & 0xffffff80) !== 0) {
        this.buf[this.offset++] = (value & 0x7f) | 0x80;
        value >>>= 7;
      }
      this.buf[this.offset++] = value & 0x7f;
      return this;
    }
  };
}

interface RequestQueueClass {
  new (...args: never[]): {
    pending: unknown[];
    throttledUntil: number;
    throttleCheckTimeoutId: NodeJS.Timeout | null;
    checkPendingRequests(): void;
  };
}

/** kafkajs's own delay before it checks waiting requests again (CHECK_PENDING_REQUESTS_INTERVAL). */
const CHECK_PENDING_MS = 10;

/**
 * kafkajs's RequestQueue whose pending-request check is armed only while requests wait, at the
 * end of a client-side throttle or after 10 ms, as kafkajs arms it then (exported for tests).
 * With nothing waiting kafkajs's check does nothing but arm the next one.
 */
export function idleQuietRequestQueue(Original: RequestQueueClass): RequestQueueClass {
  return class RequestQueue extends Original {
    static readonly idleQuiet = true;

    scheduleCheckPendingRequests() {
      if (this.pending.length === 0 || this.throttleCheckTimeoutId) return;
      const throttled = this.throttledUntil - Date.now();
      this.throttleCheckTimeoutId = setTimeout(
        () => {
          this.throttleCheckTimeoutId = null;
          this.checkPendingRequests();
        },
        throttled > 0 ? throttled : CHECK_PENDING_MS,
      );
    }
  };
}

/** What kafkajs's produce request hands its record encoder for each message. */
interface RecordFields {
  offsetDelta?: number;
  timestampDelta?: number;
  key?: unknown;
  value?: unknown;
  headers?: Record<string, unknown>;
}

/** What kafkajs's record batch takes from an encoded record: its bytes (`buf` marks it as encoded). */
export interface EncodedRecord {
  buf: Buffer;
  buffer: Buffer;
  offset: number;
  size(): number;
}

const zigzag32 = (v: number) => ((v << 1) ^ (v >> 31)) >>> 0;
const uvarintSize = (u: number) => (u < 0x80 ? 1 : u < 0x4000 ? 2 : u < 0x200000 ? 3 : u < 0x10000000 ? 4 : 5);
/** ZigZag of a safe integer as a (non-negative) number: 2v, or -2v-1 for negatives. */
const zigzag64 = (v: number) => (v >= 0 ? v * 2 : -v * 2 - 1);
const uvarlongSize = (u: number) => {
  let n = 1;
  while (u >= 0x80) {
    u = Math.floor(u / 128);
    n++;
  }
  return n;
};
/** Bytes of a key or value as kafkajs writes it: a Buffer as is, anything else as the UTF-8 of String(value); -1 for none. */
const bytesLength = (v: unknown) => (v == null ? -1 : Buffer.isBuffer(v) ? v.length : Buffer.byteLength(String(v)));

/**
 * kafkajs's record encoder (`protocol/recordBatch/record/v0`), same bytes: the record's size is
 * computed first and the record written once into one buffer. kafkajs builds an Encoder per
 * header and per varint, sizes every header twice and copies each piece into the record; for
 * records of a few hundred bytes that was most of the producer's work per message. Values outside
 * what this writes exactly (a timestamp delta that is not a safe integer) go to kafkajs's own.
 */
export function recordEncoder(original: (fields: RecordFields) => unknown): (fields: RecordFields) => EncodedRecord | unknown {
  return (fields) => {
    const { offsetDelta = 0, timestampDelta = 0, key, value, headers = {} } = fields;
    if (!Number.isSafeInteger(timestampDelta) || !Number.isInteger(offsetDelta) || offsetDelta < 0 || offsetDelta > 0x3fffffff) return original(fields);
    const keys = Object.keys(headers);
    const headerKeys: string[] = [];
    const headerValues: unknown[] = [];
    for (const k of keys) {
      const v = headers[k];
      if (Array.isArray(v)) {
        for (const item of v) {
          headerKeys.push(k);
          headerValues.push(item);
        }
      } else {
        headerKeys.push(k);
        headerValues.push(v);
      }
    }
    const keyLength = bytesLength(key);
    const valueLength = bytesLength(value);
    const tsZig = zigzag64(timestampDelta);
    let body = 1 + uvarlongSize(tsZig) + uvarintSize(zigzag32(offsetDelta));
    body += uvarintSize(zigzag32(keyLength)) + Math.max(0, keyLength);
    body += uvarintSize(zigzag32(valueLength)) + Math.max(0, valueLength);
    body += uvarintSize(zigzag32(headerKeys.length));
    const headerKeyLengths = new Array<number>(headerKeys.length);
    const headerValueLengths = new Array<number>(headerKeys.length);
    for (let i = 0; i < headerKeys.length; i++) {
      const kl = (headerKeyLengths[i] = Buffer.byteLength(headerKeys[i]!));
      const vl = (headerValueLengths[i] = bytesLength(headerValues[i]));
      body += uvarintSize(zigzag32(kl)) + kl + uvarintSize(zigzag32(vl)) + Math.max(0, vl);
    }
    const total = uvarintSize(zigzag32(body)) + body;
    const buf = Buffer.allocUnsafe(total);
    let o = 0;
    const uvarint = (u: number) => {
      while (u >= 0x80) {
        buf[o++] = (u & 0x7f) | 0x80;
        u >>>= 7;
      }
      buf[o++] = u;
    };
    const bytes = (v: unknown, length: number) => {
      uvarint(zigzag32(length));
      if (length <= 0) return;
      if (Buffer.isBuffer(v)) o += v.copy(buf, o);
      else o += buf.write(String(v), o, length, 'utf8');
    };
    uvarint(zigzag32(body));
    buf[o++] = 0; // attributes: none are used on records
    for (let u = tsZig; ; ) {
      if (u < 0x80) {
        buf[o++] = u;
        break;
      }
      buf[o++] = (u % 128) | 0x80;
      u = Math.floor(u / 128);
    }
    uvarint(zigzag32(offsetDelta));
    bytes(key, keyLength);
    bytes(value, valueLength);
    uvarint(zigzag32(headerKeys.length));
    for (let i = 0; i < headerKeys.length; i++) {
      uvarint(zigzag32(headerKeyLengths[i]!));
      o += buf.write(headerKeys[i]!, o, headerKeyLengths[i]!, 'utf8');
      bytes(headerValues[i], headerValueLengths[i]!);
    }
    return { buf, buffer: buf, offset: total, size: () => total };
  };
}

declare const __non_webpack_require__: NodeJS.Require | undefined;

/**
 * Node's own `require`, also inside the services' webpack bundles (tools/webpack.app.config.js),
 * where `require` is webpack's: its `resolve` gives module ids, its `cache` is not Node's, and
 * kafkajs stays an external package that Node loads. What is installed must be in Node's cache.
 */
const nodeRequire: NodeJS.Require = typeof __non_webpack_require__ === 'function' ? __non_webpack_require__ : require;

export function kafkajsRoot(): string {
  return dirname(nodeRequire.resolve('kafkajs/package.json'));
}

/** The kafkajs release the replacements are written for, and SHA-256 of each file they replace. */
export const EXPECTED_KAFKAJS = {
  version: '2.2.4',
  files: {
    'src/producer/groupMessagesPerPartition.js': 'ea72357721fbf67770b5e06b9bf4260faa1e60f3affb556bff2cc7892c1881fb',
    'src/protocol/recordBatch/crc32C/index.js': '0826ea7387f25400b1a24bacdbba85db9c1f2e932f168874728a9ecaf1eb2379',
    'src/protocol/encoder.js': '9977889e184a9e910e4f6098c36ec6a0ca36c183aa6ead0f24191b6aa1c9a777',
    'src/protocol/recordBatch/record/v0/index.js': 'ffbc628c1f35f5de8ba798165616b1009d9af1c27ca959999a10e6e3c18f8215',
    'src/network/requestQueue/index.js': 'b55986089c14f8f7bfc377922e2e65b3e4c1e7c7af2752d3b10a75dfe9e9260c',
  } as Record<string, string>,
} as const;

/**
 * What differs between the kafkajs installed at `root` and the one the replacements expect: an
 * empty list when the version and every replaced file are as expected (exported for tests).
 */
export function checkKafkajsInternals(root: string = kafkajsRoot()): string[] {
  const problems: string[] = [];
  let version: unknown;
  try {
    version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown }).version;
  } catch (error) {
    return [`cannot read ${join(root, 'package.json')}: ${(error as Error).message}`];
  }
  if (version !== EXPECTED_KAFKAJS.version) problems.push(`installed version is ${String(version)}, expected ${EXPECTED_KAFKAJS.version}`);
  for (const [file, expected] of Object.entries(EXPECTED_KAFKAJS.files)) {
    let actual: string;
    try {
      actual = createHash('sha256').update(readFileSync(join(root, file))).digest('hex');
    } catch {
      problems.push(`${file} is missing`);
      continue;
    }
    if (actual !== expected) problems.push(`${file} has SHA-256 ${actual}, expected ${expected}`);
  }
  return problems;
}

/** Paths of kafkajs's own modules that `replaceKafkajsInternals` installs (exported for tests). */
export function kafkajsInternalPaths() {
  const root = kafkajsRoot();
  return {
    main: nodeRequire.resolve('kafkajs'),
    groupMessagesPerPartition: join(root, 'src/producer/groupMessagesPerPartition.js'),
    crc32c: join(root, 'src/protocol/recordBatch/crc32C/index.js'),
    encoder: join(root, 'src/protocol/encoder.js'),
    record: join(root, 'src/protocol/recordBatch/record/v0/index.js'),
    requestQueue: join(root, 'src/network/requestQueue/index.js'),
  };
}

/**
 * Each replaced kafkajs module, by its path, and what replaces it given a loader of kafkajs's own
 * module (the encoder subclasses the original). Production installs these into Node's module
 * cache below; the jest setup of the Kafka suites (tools/jest/kafkajs-internals.js) registers the
 * same ones in jest's module registry, which does not read Node's cache.
 */
export function kafkajsReplacements(): { path: string; replacement: (loadOriginal: () => unknown) => unknown }[] {
  const paths = kafkajsInternalPaths();
  return [
    { path: paths.groupMessagesPerPartition, replacement: () => groupMessagesPerPartition },
    { path: paths.crc32c, replacement: () => crc32c },
    { path: paths.encoder, replacement: (loadOriginal) => poolingEncoder(loadOriginal() as EncoderClass) },
    { path: paths.record, replacement: (loadOriginal) => Object.assign(recordEncoder(loadOriginal() as (fields: RecordFields) => unknown), { singlePass: true }) },
    { path: paths.requestQueue, replacement: (loadOriginal) => idleQuietRequestQueue(loadOriginal() as RequestQueueClass) },
  ];
}

function replaceKafkajsInternals(): boolean {
  // Never install replacements over files they were not written for (services refuse to start).
  if (kafkajsInternalsProblems.length) return false;
  const paths = kafkajsInternalPaths();
  // Too late once kafkajs is loaded: its modules captured the originals.
  if (nodeRequire.cache[paths.main]) return false;
  const install = (path: string, exports: unknown) => {
    const Module = nodeRequire('node:module') as { new (id: string): NodeJS.Module & { filename: string; loaded: boolean } };
    const module = new Module(path);
    module.filename = path;
    module.loaded = true;
    module.exports = exports;
    nodeRequire.cache[path] = module;
  };
  // The encoder's original is loaded here first (it requires nothing of kafkajs that captures it),
  // then swapped for the subclass.
  for (const { path, replacement } of kafkajsReplacements()) install(path, replacement(() => nodeRequire(path)));
  return true;
}

/** Problems found in the installed kafkajs when this module loaded; empty when it is the expected release. */
export const kafkajsInternalsProblems: string[] = checkKafkajsInternals();

export const kafkajsInternalsReplaced = replaceKafkajsInternals();

/**
 * Which replacements kafkajs's own `require` gets under its paths: by default what Node's module
 * cache holds; `load` reads another module registry instead (jest's, in the Kafka suites).
 */
export function installedKafkajsInternals(load: (path: string) => unknown = (path) => nodeRequire.cache[path]?.exports) {
  const paths = kafkajsInternalPaths();
  return {
    groupingInstalled: load(paths.groupMessagesPerPartition) === groupMessagesPerPartition,
    crcInstalled: load(paths.crc32c) === crc32c,
    encoderInstalled: (load(paths.encoder) as { pooling?: boolean } | undefined)?.pooling === true,
    recordInstalled: (load(paths.record) as { singlePass?: boolean } | undefined)?.singlePass === true,
    requestQueueInstalled: (load(paths.requestQueue) as { idleQuiet?: boolean } | undefined)?.idleQuiet === true,
  };
}
