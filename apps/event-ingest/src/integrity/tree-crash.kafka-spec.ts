import { createHash, verify } from 'node:crypto';
import { Topics } from '@vigil/contracts';
import { publicKeyFromBase64 } from '@vigil/integrity';
import { KafkaBus } from '@vigil/messaging';
import { createLogger, SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnPolicyService, spawnTs, type TestDatabase, testKafka, waitFor } from '@vigil/testing';
import { type EventRow, toEvent } from '../events/events.repository';
import { storedEventLeafHash } from './leaf';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
/** MTH of RFC 9162, straight from its definition (not the code under test). */
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha();
  if (d.length === 1) return d[0]!;
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return sha(Buffer.from([1]), mth(d.slice(0, k)), mth(d.slice(k)));
}

/**
 * event-ingest as its own process, killed with SIGKILL after events committed that no checkpoint
 * covers yet: after a restart the tree continues with no gap, every leaf is the hash of the event
 * stored at its position, and every checkpoint (before and after the kill) signs the root of
 * exactly those leaves.
 */
describe('the event log across a SIGKILL between a commit and a checkpoint', () => {
  let db: TestDatabase;
  let producer: KafkaBus;
  let service: ChildService | undefined;
  /** event-ingest stores no record before it has loaded the policies from the policy service. */
  let policy: (ChildService & { rpcAddress: string }) | undefined;
  const kafka = testKafka();
  const key = SecretBox.generateKey();
  const total = 3000;

  beforeAll(async () => {
    db = await createTestDatabase();
    policy = await spawnPolicyService({ DATABASE_URL: db.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: kafka.prefix, VIGIL_ENCRYPTION_KEYS: key });
    producer = new KafkaBus({ brokers: kafka.brokers, clientId: 'tree-crash-test', prefix: kafka.prefix, logger: createLogger('test', 'warn') });
  }, 180_000);

  afterAll(async () => {
    await service?.kill();
    await policy?.kill();
    await producer?.close();
    await db?.drop();
  });

  async function start(): Promise<ChildService> {
    const child = spawnTs('apps/event-ingest/src/main.ts', {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      POLICY_RPC_ADDRESS: policy!.rpcAddress,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(await freePort()),
      INGEST_BATCH_SIZE: '50',
      VIGIL_ENCRYPTION_KEYS: key,
      INTEGRITY_CHECKPOINT_INTERVAL_MS: '10000',
      INTEGRITY_BUILD_BATCH: '256',
    });
    child.exited.then((code) => {
      if (code !== null && code !== 0) process.stderr.write(child.output().slice(-2000));
    });
    return child;
  }

  const one = async <T>(sql: string) => (await db.query<T>(sql))[0]!;
  const head = async () => Number((await one<{ n: string }>(`SELECT last_seq::text AS n FROM event_ingest.event_sequence`)).n);
  const latest = async () => Number((await one<{ n: string | null }>(`SELECT max(tree_size)::text AS n FROM event_ingest.integrity_checkpoints`)).n ?? 0);

  it('continues the tree with no gap and every checkpoint verifies', async () => {
    service = await start();
    await waitFor(async () => {
      await producer.publish([{ topic: Topics.auditIngest, messages: [] }]);
      return (await db.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'event_ingest' AND table_name = 'integrity_checkpoints'`)).length === 1;
    }, 150_000, 'event-ingest migrated');
    const records = Array.from({ length: total }, (_, i) => ({
      key: `db_tree_${i % 4}`,
      value: JSON.stringify({ id: `tree-${i}`, type: 'database.query', database_id: `db_tree_${i % 4}`, details: { user: `u${i % 5}`, query: `SELECT ${i}` } }),
      headers: {},
    }));
    for (let i = 0; i < total; i += 250) await producer.publish([{ topic: Topics.auditIngest, messages: records.slice(i, i + 250) }]);

    // Kill once events have committed past the latest checkpoint (the first is signed at once, the
    // next only 10 s later).
    await waitFor(async () => (await latest()) > 0 && (await head()) > (await latest()) + 50, 150_000, 'events committed past the latest checkpoint').catch((error) => {
      throw new Error(`${error.message}\n--- event-ingest output ---\n${service?.output().slice(-4000)}`);
    });
    await service.kill();
    const atKill = { head: await head(), checkpoint: await latest() };
    process.stdout.write(`tree-crash: killed at head ${atKill.head}, latest checkpoint ${atKill.checkpoint}\n`);
    expect(atKill.head).toBeGreaterThan(atKill.checkpoint + 1);

    service = await start();
    await waitFor(async () => Number((await one<{ n: string }>(`SELECT count(*)::text AS n FROM event_ingest.events WHERE producer_id LIKE 'tree-%'`)).n) >= total, 150_000, 'all records stored');
    // A checkpoint covering everything but its own event.
    await waitFor(async () => (await latest()) >= (await head()) - 1, 60_000, 'a checkpoint covering every event');
    expect(await service.stop()).toBe(0);

    const rows = await db.query<EventRow>(
      `SELECT seq::text AS seq, id, type, severity, database_id, "timestamp", processed_at, producer_id, policy_id, rule_id, risk_score, details, correlation_id, escaped, ingested_by
       FROM event_ingest.events e ORDER BY e.seq`,
    );
    // Dense sequences: leaf i is the event of sequence i + 1.
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
    const leaves = rows.map((r) => storedEventLeafHash(toEvent(r)));
    const state = await one<{ tree_size: string; tail: Buffer }>(`SELECT tree_size::text, tail FROM event_ingest.integrity_tree`);
    const built = Number(state.tree_size);
    expect(built).toBeGreaterThanOrEqual(rows.length - 1);
    const blocks = await db.query<{ block: string; hashes: Buffer }>(`SELECT block::text, hashes FROM event_ingest.integrity_leaf_blocks b ORDER BY b.block`);
    expect(blocks.map((b) => Number(b.block))).toEqual(Array.from({ length: Math.floor(built / 256) }, (_, i) => i));
    const stored = Buffer.concat([...blocks.map((b) => b.hashes), state.tail]);
    expect(stored.length).toBe(built * 32);
    for (let i = 0; i < built; i++) {
      if (!stored.subarray(i * 32, i * 32 + 32).equals(leaves[i]!)) throw new Error(`leaf ${i} is not the hash of the event of sequence ${i + 1}`);
    }
    const keys = await db.query<{ key_id: string; public_key: string }>(`SELECT key_id, public_key FROM event_ingest.integrity_keys`);
    const checkpoints = await db.query<{ tree_size: string; root_hash: Buffer; timestamp: Date; key_id: string; signature: string }>(
      `SELECT tree_size::text, root_hash, "timestamp", key_id, signature FROM event_ingest.integrity_checkpoints c ORDER BY c.tree_size`,
    );
    expect(checkpoints.length).toBeGreaterThanOrEqual(2);
    expect(checkpoints.some((c) => Number(c.tree_size) <= atKill.checkpoint)).toBe(true);
    for (const c of checkpoints) {
      const size = Number(c.tree_size);
      expect(c.root_hash.equals(mth(leaves.slice(0, size)))).toBe(true);
      const message = Buffer.from(`vigil.checkpoint/v1\n${size}\n${c.root_hash.toString('hex')}\n${c.timestamp.toISOString()}\n${c.key_id}\n`);
      const publicKey = publicKeyFromBase64(keys.find((k) => k.key_id === c.key_id)!.public_key);
      expect(verify(null, message, publicKey, Buffer.from(c.signature, 'base64'))).toBe(true);
    }
    // At most 10,000 events between checkpoints (here: never more than the configured maximum).
    for (let i = 1; i < checkpoints.length; i++) expect(Number(checkpoints[i]!.tree_size) - Number(checkpoints[i - 1]!.tree_size)).toBeLessThanOrEqual(10_000);
  }, 480_000);
});
