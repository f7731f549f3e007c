import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync, renameSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type AuditRecord, MessageHeaders, Topics } from '@vigil/contracts';
import type { Logger } from '@vigil/platform';

/** Who the stored events name as `ingested_by` (`{kind: "proxy", id}`): this proxy and its host. */
const PROXY_IDENTITY = `pg-proxy@${hostname()}`.slice(0, 200).replace(/[^A-Za-z0-9._:@/-]/g, '_');

/** After a spill write fails, how long the spill counts as full before a write is tried again. */
const SPILL_RETRY_MS = 1000;

/** A Kafka record's bytes beside its value: key, the three headers, lengths and offsets (an upper bound). */
const RECORD_OVERHEAD_BYTES = 160 + PROXY_IDENTITY.length;

/** What records are published through: the MessageBus (Kafka or in-process). */
export interface RecordSink {
  publish(batches: { topic: string; messages: { key: string | null; value: string; headers: Record<string, string> }[] }[]): Promise<void>;
}

export interface CaptureBufferOptions {
  sink: RecordSink;
  logger: Logger;
  maxRecords: number;
  spillDir: string;
  maxSpillBytes: number;
  publishTimeoutMs: number;
  failMode: (databaseId: string) => 'open' | 'closed';
  /** Most records in one publish (default 2,000). */
  batchSize?: number;
  /**
   * Most bytes in one publish (record JSON plus each record's key and headers; default 768 KiB): a Kafka broker refuses a record
   * batch over its `message.max.bytes` (1 MiB by default) for good, and a refused batch would be
   * retried forever, holding back every record behind it. A single record over this bound goes
   * alone (the capture limit keeps records well under a mebibyte).
   */
  maxBatchBytes?: number;
  /**
   * How long the publisher lets records gather before sending a batch smaller than `batchSize`
   * (as a Kafka producer's linger.ms): each publish to Kafka costs hundreds of microseconds of CPU
   * whatever its size, so under load a publish per few records would cost more than the capture
   * itself. Default 50 ms; 0 publishes as soon as anything waits.
   */
  lingerMs?: number;
  onDropped?: (count: number) => void;
}

type CapturedRecord = AuditRecord & { id: string; database_id: string };

/**
 * A record as it waits: its JSON text (what is published and spilled, serialized once) and the
 * fields the buffer itself needs.
 */
export interface SerializedRecord {
  id: string;
  type: string;
  database_id: string;
  json: string;
}

/**
 * The bounded path of captured records to `audit.ingest`. Records wait in memory; past
 * `maxRecords` the oldest are written to a spill segment on local disk (JSON lines), and a
 * publisher drains segments (oldest first) and then memory whenever the broker accepts. Segments
 * survive a restart and are drained by the next process. When memory and spill space are both
 * full, a fail-open database keeps working and the lost records are counted and logged; a
 * fail-closed database refuses new statements (`admits` is false) until space frees up.
 * Records carry a producer id, so a publish that timed out here but landed is stored once.
 */
export class CaptureBuffer {
  private memory: SerializedRecord[] = [];
  private segments: { path: string; bytes: number; records: number }[] = [];
  private spillBytes = 0;
  private spilledRecords = 0;
  private seq = 0;
  private running = false;
  /** Set by `stop`: what waits is published at once, without lingering. */
  private stopping = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private failures = 0;
  /**
   * Records at the front of memory being published right now: a spill leaves them there (the
   * publisher removes them once published), so it never takes a record that is in flight.
   */
  private inFlight = 0;
  /** When a spill write last failed (the disk full before PROXY_SPILL_MAX_BYTES, or unwritable): the spill counts as full for a second. */
  private spillFailedAt = 0;
  /** Spill writes that failed, each leaving its records in memory. */
  spillFailures = 0;
  dropped = 0;
  published = 0;

  constructor(private readonly options: CaptureBufferOptions) {
    mkdirSync(options.spillDir, { recursive: true });
    // Segments left by an earlier process are drained first.
    for (const name of readdirSync(options.spillDir).filter((n) => /^spill-\d+-\d+\.jsonl$/.test(n)).sort()) {
      const path = join(options.spillDir, name);
      const bytes = statSync(path).size;
      const records = readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
      this.segments.push({ path, bytes, records });
      this.spillBytes += bytes;
      this.spilledRecords += records;
    }
  }

  /** Records waiting, in memory and on disk. */
  get depth(): number {
    return this.memory.length + this.spilledRecords;
  }

  get spilled(): number {
    return this.spilledRecords;
  }

  private get full(): boolean {
    return this.memory.length >= this.options.maxRecords && (this.spillBytes >= this.options.maxSpillBytes || Date.now() - this.spillFailedAt < SPILL_RETRY_MS);
  }

  /** Whether a new statement of this database may run: false only when full and fail-closed. */
  admits(databaseId: string): boolean {
    return !this.full || this.options.failMode(databaseId) === 'open';
  }

  /** Takes a record already serialized: its `json` is the record with these id, type and database_id. */
  add(record: SerializedRecord): void {
    if (this.full) {
      if (this.options.failMode(record.database_id) === 'open') {
        this.dropped++;
        this.options.onDropped?.(1);
        if (this.dropped === 1 || this.dropped % 1000 === 0) {
          this.options.logger.error({ dropped_total: this.dropped, database_id: record.database_id }, 'capture buffer and spill space are full: fail-open database, records dropped');
        }
        return;
      }
      // Fail-closed: the statement was admitted before the buffer filled; its record is kept over the bound.
    }
    this.memory.push(record);
    if (this.memory.length > this.options.maxRecords) this.spill();
    this.wake?.();
  }

  private spill(): void {
    const room = this.options.maxSpillBytes - this.spillBytes;
    if (room <= 0 || Date.now() - this.spillFailedAt < SPILL_RETRY_MS) return;
    const take = this.memory.splice(this.inFlight, Math.max(1, Math.floor(this.options.maxRecords / 2)));
    if (!take.length) return;
    let text = '';
    let kept = 0;
    for (const record of take) {
      const line = `${record.json}\n`;
      if (text.length + line.length > room && kept > 0) break;
      text += line;
      kept++;
    }
    // What did not fit goes back to the front of memory (kept over the bound rather than lost).
    if (kept < take.length) this.memory.splice(this.inFlight, 0, ...take.slice(kept));
    const path = join(this.options.spillDir, `spill-${Date.now()}-${String(this.seq++).padStart(6, '0')}.jsonl`);
    const tmp = `${path}.tmp`;
    try {
      writeFileSync(tmp, text);
      renameSync(tmp, path);
    } catch (error) {
      // The disk is full before PROXY_SPILL_MAX_BYTES (or the folder is not writable): the records
      // stay in memory, and the spill counts as full (the fail mode applies) until a write succeeds.
      try {
        unlinkSync(tmp);
      } catch {
        // Never created, or already gone.
      }
      this.memory.splice(this.inFlight, 0, ...take.slice(0, kept));
      this.spillFailedAt = Date.now();
      this.spillFailures++;
      if (this.spillFailures === 1 || this.spillFailures % 100 === 0) {
        this.options.logger.error({ err: error, spill_failures: this.spillFailures, spill_bytes: this.spillBytes, depth: this.depth }, 'capture spill could not be written: spill space counts as full');
      }
      return;
    }
    this.spillFailedAt = 0;
    const bytes = Buffer.byteLength(text);
    this.segments.push({ path, bytes, records: kept });
    this.spillBytes += bytes;
    this.spilledRecords += kept;
    this.options.logger.warn({ records: kept, spill_bytes: this.spillBytes }, 'capture buffer spilled to disk');
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * How many records from `from` go in the next publish: up to `batchSize`, and up to
   * `maxBatchBytes` of JSON (at least one record).
   */
  private batchLength(records: readonly SerializedRecord[], from: number): number {
    const size = this.options.batchSize ?? 2000;
    const maxBytes = this.options.maxBatchBytes ?? 768 * 1024;
    const end = Math.min(records.length, from + size);
    // A UTF-16 code unit is at most 3 bytes of UTF-8: when that bound fits, every record does,
    // and no text is measured (Buffer.byteLength walks all of it).
    let bound = 0;
    for (let j = from; j < end && bound <= maxBytes; j++) bound += 3 * records[j]!.json.length + RECORD_OVERHEAD_BYTES;
    if (bound <= maxBytes) return end - from;
    let bytes = 0;
    let i = from;
    for (; i < end; i++) {
      // The JSON plus what the record carries beside it on the broker (key, three headers, framing).
      bytes += Buffer.byteLength(records[i]!.json) + RECORD_OVERHEAD_BYTES;
      if (bytes > maxBytes && i > from) break;
    }
    return i - from;
  }

  private async publish(records: SerializedRecord[]): Promise<void> {
    const messages = new Array<{ key: string; value: string; headers: Record<string, string> }>(records.length);
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      messages[i] = { key: r.database_id, value: r.json, headers: { [MessageHeaders.messageId]: r.id, [MessageHeaders.eventType]: r.type, [MessageHeaders.producer]: PROXY_IDENTITY } };
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`publish timed out after ${this.options.publishTimeoutMs} ms`)), this.options.publishTimeoutMs);
    });
    try {
      await Promise.race([this.options.sink.publish([{ topic: Topics.auditIngest, messages }]), timeout]);
    } finally {
      clearTimeout(timer);
    }
    this.published += records.length;
  }

  /** One step: publishes the oldest spill segment, or a batch from memory. False when idle. */
  private async step(): Promise<boolean> {
    const segment = this.segments[0];
    if (segment) {
      const records = readFileSync(segment.path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const { id, type, database_id } = JSON.parse(line) as CapturedRecord;
          return { id, type, database_id, json: line };
        });
      for (let i = 0; i < records.length; ) {
        const n = this.batchLength(records, i);
        await this.publish(records.slice(i, i + n));
        i += n;
      }
      unlinkSync(segment.path);
      this.segments.shift();
      this.spillBytes -= segment.bytes;
      this.spilledRecords -= segment.records;
      return true;
    }
    if (!this.memory.length) return false;
    const size = this.options.batchSize ?? 2000;
    const linger = this.options.lingerMs ?? 50;
    if (linger > 0 && this.memory.length < size && this.running && !this.stopping) {
      // A short wait lets concurrent sessions' records share one publish (`stop` ends it early).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.wake = undefined;
          resolve();
        }, linger);
        this.wake = () => {
          if (this.memory.length < size && this.running && !this.stopping) return;
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
    const batch = this.memory.slice(0, this.batchLength(this.memory, 0));
    this.inFlight = batch.length;
    try {
      await this.publish(batch);
    } finally {
      this.inFlight = 0;
    }
    // Only now are they gone from the buffer: `add` appends and a spill takes from behind the
    // batch, so the front is still this batch.
    this.memory.splice(0, batch.length);
    return true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const worked = await this.step();
        this.failures = 0;
        // Records added while that step ran (or before the loop first got here) are not waited on.
        if (!worked && !this.memory.length && this.running) await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      } catch (error) {
        this.failures++;
        const delay = Math.min(100 * 2 ** Math.min(this.failures, 6), 5000);
        if (this.failures === 1 || this.failures % 20 === 0) this.options.logger.warn({ err: error, depth: this.depth, retry_ms: delay }, 'audit.ingest unreachable; captures stay buffered');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /**
   * Stops the publisher: tries to publish what is left until `deadlineMs`, then writes whatever
   * remains to a spill segment (over the spill bound if need be) for the next process.
   */
  async stop(deadlineMs = 5000): Promise<void> {
    const until = Date.now() + deadlineMs;
    this.stopping = true;
    while (this.depth > 0 && Date.now() < until && this.failures === 0) {
      this.wake?.();
      await new Promise((r) => setTimeout(r, 20));
    }
    this.running = false;
    this.wake?.();
    await this.loop;
    if (this.memory.length) {
      const path = join(this.options.spillDir, `spill-${Date.now()}-${String(this.seq++).padStart(6, '0')}.jsonl`);
      try {
        appendFileSync(path, this.memory.map((r) => `${r.json}\n`).join(''));
      } catch (error) {
        // Nowhere to keep them: counted and logged as lost, never silently.
        try {
          unlinkSync(path);
        } catch {
          // Never created.
        }
        this.dropped += this.memory.length;
        this.options.onDropped?.(this.memory.length);
        this.options.logger.error({ err: error, records: this.memory.length, path }, 'unpublished captures could not be written to disk at shutdown: lost');
        this.memory = [];
        return;
      }
      this.options.logger.warn({ records: this.memory.length, path }, 'unpublished captures written to disk for the next start');
      this.spilledRecords += this.memory.length;
      this.memory = [];
    }
  }
}

/**
 * The JSON text of a record whose details start with fields shared by every record of a session
 * (`shared`, already serialized with JSON.stringify): they are serialized once per session rather
 * than once per statement. `details` follow them (a key in both takes the value of `details`, as
 * an object spread would). `id`, `type` and `severity` are ASCII identifiers and are written as is.
 */
export function serializeRecord(head: { id: string; type: string; database_id: string; timestamp: string; severity?: string }, shared: string, details: Record<string, unknown>): string {
  const own = JSON.stringify(details);
  const sharedInner = shared.length > 2 ? shared.slice(1, -1) : '';
  const detailsText = own === '{}' ? `{${sharedInner}}` : sharedInner ? `{${sharedInner},${own.slice(1)}` : own;
  return `{"id":"${head.id}","type":"${head.type}","database_id":${JSON.stringify(head.database_id)},"timestamp":"${head.timestamp}"${head.severity ? `,"severity":"${head.severity}"` : ''},"details":${detailsText}}`;
}
