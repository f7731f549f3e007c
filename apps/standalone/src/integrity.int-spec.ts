import { createHash, generateKeyPairSync, sign, verify, createPublicKey } from 'node:crypto';
import { applyRetention } from '@vigil/service/event-ingest/testing';
import { waitFor } from '@vigil/testing';
import { IntegrityApi, verifyApi } from '@vigil/verify';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/*
 * An independent RFC 9162 implementation (not the code under test): the tree hash, inclusion paths
 * and consistency proofs straight from the RFC's recursive definitions, over every leaf.
 */
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const nodeH = (l: Buffer, r: Buffer) => sha(Buffer.from([1]), l, r);
const largestPow2Below = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha();
  if (d.length === 1) return d[0]!;
  const k = largestPow2Below(d.length);
  return nodeH(mth(d.slice(0, k)), mth(d.slice(k)));
}
function path(m: number, d: Buffer[]): Buffer[] {
  if (d.length <= 1) return [];
  const k = largestPow2Below(d.length);
  return m < k ? [...path(m, d.slice(0, k)), mth(d.slice(k))] : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
}
function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  const n = d.length;
  if (m === n) return b ? [] : [mth(d)];
  const k = largestPow2Below(n);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}
const hex = (b: Buffer) => b.toString('hex');
const checkpointMessage = (c: { tree_size: number; root_hash: string; timestamp: string; key_id: string }) =>
  Buffer.from(`vigil.checkpoint/v1\n${c.tree_size}\n${c.root_hash}\n${c.timestamp}\n${c.key_id}\n`);
const rawToKey = (b64: string) => createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(b64, 'base64')]), format: 'der', type: 'spki' });

/** A canonical (RFC 8785) encoding for plain ASCII data with integer numbers: keys sorted, no spaces. */
function jcs(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jcs(v)}`).join(',')}}`;
}

/**
 * The verifiable log end to end: leaves of every stored event in storage order, signed
 * checkpoints, proofs checked by the independent implementation above, key rotation, and the
 * verification job against an attacker with superuser SQL (triggers off) who alters, deletes,
 * swaps, truncates, forges a checkpoint and finally replaces the whole tree.
 */
describe('integrity: tamper-evident event log', () => {
  let system: TestSystem;
  let token: string;
  let ids: string[] = [];

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { INTEGRITY_CHECKPOINT_INTERVAL_MS: '200', INTEGRITY_VERIFY_BATCH: '100' } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  const get = (p: string) => http(system.gatewayUrl, 'GET', p, { token });
  const post = (p: string, body?: unknown) => http(system.gatewayUrl, 'POST', p, { token, body: body ?? {} });
  const head = async () => Number((await system.db.query<{ n: string }>(`SELECT last_seq::text AS n FROM event_ingest.event_sequence`))[0]!.n);

  async function ingest(n: number, tag: string): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < n; i += 200) {
      const events = Array.from({ length: Math.min(200, n - i) }, (_, j) => ({
        type: 'database.query',
        database_id: 'db_integrity',
        details: { user: `u${(i + j) % 7}`, query: `SELECT ${tag}${i + j}` },
      }));
      const response = await post('/v1/events/ingest', { events });
      expect(response.status).toBe(202);
      out.push(...response.body.ids);
    }
    return out;
  }

  /** Waits until a checkpoint covers every event stored so far but its own. */
  async function settled(): Promise<{ tree_size: number; root_hash: string; timestamp: string; key_id: string; signature: string }> {
    let latest: any;
    await waitFor(async () => {
      const response = await get('/v1/integrity/checkpoints/latest');
      if (response.status !== 200) return false;
      latest = response.body;
      return latest.tree_size >= (await head()) - 1;
    }, 60_000, 'a checkpoint covering every event');
    return latest;
  }

  async function allLeaves(size: number): Promise<{ leaf_index: number; leaf_hash: string; event: any; retained: boolean }[]> {
    const out: any[] = [];
    let from: number | null = 0;
    while (from !== null && from < size) {
      const response = await get(`/v1/integrity/leaves?from=${from}&limit=1000`);
      expect(response.status).toBe(200);
      out.push(...response.body.data);
      from = response.body.next_from;
    }
    return out.slice(0, size);
  }

  async function verification(body: Record<string, number> = {}): Promise<any> {
    const started = await post('/v1/integrity/verifications', body);
    expect(started.status).toBe(202);
    expect(started.body.status).toBe('running');
    let job: any;
    await waitFor(async () => {
      job = (await get(`/v1/integrity/verifications/${started.body.id}`)).body;
      return job.status !== 'running';
    }, 60_000, 'verification finished');
    return job;
  }

  const keys = async () => (await get('/v1/integrity/keys')).body.data as { key_id: string; public_key: string; valid_from: string; valid_until: string | null; status: string }[];
  const signedBy = (cp: any, list: { key_id: string; public_key: string }[]) => {
    const key = list.find((k) => k.key_id === cp.key_id);
    return !!key && verify(null, checkpointMessage(cp), rawToKey(key.public_key), Buffer.from(cp.signature, 'base64'));
  };

  let first: Awaited<ReturnType<typeof settled>>;
  let second: Awaited<ReturnType<typeof settled>>;

  it('makes every stored event a leaf in storage order and signs checkpoints of the tree', async () => {
    ids = await ingest(300, 'a');
    first = await settled();
    ids.push(...(await ingest(433, 'b')));
    second = await settled();
    expect(second.tree_size).toBeGreaterThan(first.tree_size);
    expect(second.tree_size).toBeGreaterThanOrEqual(734); // 733 events and the first checkpoint's event

    const published = await keys();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ algorithm: 'Ed25519', status: 'active', valid_until: null });
    expect(signedBy(first, published)).toBe(true);
    expect(signedBy(second, published)).toBe(true);

    const leaves = await allLeaves(second.tree_size);
    expect(leaves.map((l) => l.leaf_index)).toEqual(leaves.map((_, i) => i));
    // Leaf index = seq - 1, every event retained, each leaf = SHA-256(0x00 || JCS of the published fields).
    const seqs = await system.db.query<{ id: string; seq: string }>(`SELECT id, seq::text FROM event_ingest.events WHERE seq <= $1`, [second.tree_size]);
    for (const { id, seq } of seqs) expect(leaves[Number(seq) - 1]!.event.id).toBe(id);
    for (const leaf of leaves.slice(0, 50)) {
      const e = leaf.event;
      const canonical = jcs({ v: 1, id: e.id, type: e.type, severity: e.severity, database_id: e.database_id, timestamp: e.timestamp, processed_at: e.processed_at, details: e.details, context: e.context, producer_id: e.producer_id, ingested_by: e.ingested_by ?? null });
      expect(leaf.leaf_hash).toBe(hex(sha(Buffer.from([0]), Buffer.from(canonical))));
    }
    const hashes = leaves.map((l) => Buffer.from(l.leaf_hash, 'hex'));
    expect(mth(hashes.slice(0, first.tree_size)).toString('hex')).toBe(first.root_hash);
    expect(mth(hashes).toString('hex')).toBe(second.root_hash);
    // The first checkpoint is itself a stored event (and so a leaf of the second tree).
    const cpEvent = leaves.find((l) => l.event?.type === 'audit.checkpoint' && l.event.details.tree_size === first.tree_size);
    expect(cpEvent?.event).toMatchObject({ severity: 'info', database_id: 'vigil', details: first });
  }, 180_000);

  it('serves inclusion and consistency proofs the independent implementation accepts, for sizes that are not powers of two', async () => {
    const leaves = await allLeaves(second.tree_size);
    const hashes = leaves.map((l) => Buffer.from(l.leaf_hash, 'hex'));
    for (const index of [0, 1, 255, 256, 257, 511, 600, second.tree_size - 1]) {
      const id = leaves[index]!.event.id;
      const proof = await get(`/v1/integrity/proofs/inclusion?event_id=${id}&tree_size=${second.tree_size}`);
      expect(proof.status).toBe(200);
      expect(proof.body).toMatchObject({ event_id: id, leaf_index: index, tree_size: second.tree_size, leaf_hash: leaves[index]!.leaf_hash, checkpoint: second });
      expect(proof.body.audit_path).toEqual(path(index, hashes).map(hex));
    }
    // Against the older checkpoint, and by default against the latest.
    const old = await get(`/v1/integrity/proofs/inclusion?event_id=${leaves[7]!.event.id}&tree_size=${first.tree_size}`);
    expect(old.body.audit_path).toEqual(path(7, hashes.slice(0, first.tree_size)).map(hex));
    expect((await get(`/v1/integrity/proofs/inclusion?event_id=${leaves[7]!.event.id}`)).body.tree_size).toBe(second.tree_size);

    const consistency = await get(`/v1/integrity/proofs/consistency?first=${first.tree_size}&second=${second.tree_size}`);
    expect(consistency.status).toBe(200);
    expect(consistency.body.proof).toEqual(subproof(first.tree_size, hashes, true).map(hex));

    // Errors are problems with their exact status.
    expect((await get(`/v1/integrity/proofs/inclusion?event_id=evt_nope&tree_size=${second.tree_size}`)).status).toBe(404);
    expect((await get(`/v1/integrity/proofs/inclusion?event_id=${ids[0]}&tree_size=3`)).status).toBe(404);
    expect((await get(`/v1/integrity/proofs/inclusion?event_id=not-an-id`)).status).toBe(400);
    expect((await get(`/v1/integrity/proofs/consistency?first=${second.tree_size}&second=${first.tree_size}`)).status).toBe(400);
    expect((await get(`/v1/integrity/checkpoints/${first.tree_size}`)).body).toEqual(first);
    expect((await get(`/v1/integrity/checkpoints/999999`)).status).toBe(404);
    expect((await get(`/v1/integrity/checkpoints/abc`)).status).toBe(400);
    const list = await get('/v1/integrity/checkpoints?per_page=100');
    expect(list.body.data[0]).toEqual(second);
    expect(list.body.data.map((c: any) => c.tree_size)).toEqual([...list.body.data.map((c: any) => c.tree_size)].sort((a: number, b: number) => b - a));
    expect((await post('/v1/integrity/verifications', { to_index: second.tree_size + 1, tree_size: second.tree_size })).status).toBe(400);
    expect((await get('/v1/integrity/verifications/ver_missing')).status).toBe(404);
  }, 120_000);

  it('rotates the signing key on demand: checkpoints before and after verify, and a proof against an old checkpoint still does', async () => {
    const rotated = await post('/v1/integrity/keys/rotate');
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ algorithm: 'Ed25519', status: 'active', valid_until: null });
    await ingest(20, 'c');
    const third = await settled();
    expect(third.key_id).toBe(rotated.body.key_id);
    const published = await keys();
    expect(published).toHaveLength(2);
    const old = published.find((k) => k.key_id === first.key_id)!;
    expect(old.status).toBe('retired');
    expect(Date.parse(old.valid_until!)).toBeGreaterThanOrEqual(Date.parse(second.timestamp));
    for (const cp of [first, second, third]) expect(signedBy(cp, published)).toBe(true);
    // A forged checkpoint (another key under a published id) does not verify.
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = { ...third, signature: sign(null, checkpointMessage(third), privateKey).toString('base64') };
    expect(signedBy(forged, published)).toBe(false);

    const leaves = await allLeaves(third.tree_size);
    const hashes = leaves.map((l) => Buffer.from(l.leaf_hash, 'hex'));
    const proof = await get(`/v1/integrity/proofs/inclusion?event_id=${leaves[100]!.event.id}&tree_size=${first.tree_size}`);
    expect(proof.body.checkpoint.key_id).toBe(old.key_id);
    expect(proof.body.audit_path).toEqual(path(100, hashes.slice(0, first.tree_size)).map(hex));
    expect(mth(hashes.slice(0, first.tree_size)).toString('hex')).toBe(proof.body.checkpoint.root_hash);
    expect((await get(`/v1/integrity/proofs/consistency?first=${first.tree_size}&second=${third.tree_size}`)).body.proof).toEqual(subproof(first.tree_size, hashes, true).map(hex));
    second = third;
  }, 120_000);

  it('keeps the leaves of events retention drops: the rest verifies, the dropped ones are listed as not retained and in the report', async () => {
    const old = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const response = await post('/v1/events/ingest', {
      events: Array.from({ length: 30 }, (_, i) => ({ type: 'database.query', database_id: 'db_integrity', timestamp: old, details: { user: 'old', query: `SELECT old${i}` } })),
    });
    expect(response.status).toBe(202);
    await ingest(10, 'd');
    const cp = await settled();
    await applyRetention(system.db.url, 0); // the old day gets its own partition
    expect((await applyRetention(system.db.url, 2)).dropped).toHaveLength(1); // ... which retention drops
    const oldIds: string[] = response.body.ids;
    const leaves = await allLeaves(cp.tree_size);
    const droppedLeaves = leaves.filter((l) => !l.retained);
    expect(droppedLeaves).toHaveLength(30);
    expect(droppedLeaves.every((l) => l.event === null && /^[0-9a-f]{64}$/.test(l.leaf_hash))).toBe(true);
    const gaps = await system.db.query<{ first_index: string; last_index: string; setting: string }>(`SELECT first_index::text, last_index::text, setting FROM event_ingest.integrity_retained_gaps`);
    expect(gaps).toEqual([{ first_index: String(droppedLeaves[0]!.leaf_index), last_index: String(droppedLeaves[29]!.leaf_index), setting: 'EVENTS_RETENTION_DAYS=2' }]);
    expect((await get(`/v1/integrity/proofs/inclusion?event_id=${oldIds[0]}`)).status).toBe(404);
    // Everything that remains verifies, on the server and offline.
    expect(await verification({ tree_size: cp.tree_size })).toMatchObject({ status: 'passed', first_failure: null });
    const offline = await verifyApi(new IntegrityApi({ url: system.gatewayUrl, apiKey: token }), { trustedKeys: await keys() });
    expect(offline.failure).toBeNull();
    expect(offline.not_retained).toBe(30);
    // The compliance report names the dropped range, when and under which setting.
    const report = await post('/v1/reports', { type: 'pci_dss', period_start: old, period_end: new Date().toISOString() });
    expect(report.status).toBe(202);
    await waitFor(async () => (await get(`/v1/reports/${report.body.id}`)).body.status === 'completed', 60_000, 'report generated');
    const doc = (await get(`/v1/reports/${report.body.id}/download?format=json`)).body;
    const section = doc.sections.find((x: { id: string }) => x.id === 'retention');
    expect(section.metrics).toEqual({ events: 30, ranges: 1 });
    expect(section.rows[0]).toEqual([expect.stringMatching(/^events_p/), expect.any(String), expect.any(String), droppedLeaves[0]!.leaf_index, droppedLeaves[29]!.leaf_index, 30, expect.any(String), 'EVENTS_RETENTION_DAYS=2']);
  }, 180_000);

  describe('the verification job against an attacker with SQL', () => {
    let size: number;
    let trustedKeys: Awaited<ReturnType<typeof keys>>;
    const seqOf = async (index: number) => index + 1;
    const offline = async () => (await verifyApi(new IntegrityApi({ url: system.gatewayUrl, apiKey: token }), { trustedKeys })).failure;

    beforeAll(async () => {
      size = (await settled()).tree_size;
      trustedKeys = await keys();
      // The attacker model: a superuser turns the immutability triggers off for the session.
      await system.db.query(`SET session_replication_role = replica`);
    });

    afterAll(async () => {
      await system.db.query(`SET session_replication_role = origin`);
    });

    it('passes an untouched log, range by range', async () => {
      const job = await verification({ tree_size: size });
      expect(job).toMatchObject({ status: 'passed', tree_size: size, from_index: 0, to_index: size, checked: size, total: size, first_failure: null });
      expect((await verification({ from_index: 300, to_index: 400 })).status).toBe('passed');
    }, 120_000);

    it('names an altered field', async () => {
      const target = 411;
      const [before] = await system.db.query<{ details: unknown }>(`SELECT details FROM event_ingest.events WHERE seq = $1`, [await seqOf(target)]);
      await system.db.query(`UPDATE event_ingest.events SET details = jsonb_set(details, '{user}', '"mallory"') WHERE seq = $1`, [await seqOf(target)]);
      const job = await verification({ tree_size: size });
      expect(job.status).toBe('failed');
      expect(job.first_failure).toMatchObject({ leaf_index: target, reason: 'altered' });
      expect(job.first_failure.event_id).toMatch(/^evt_/);
      expect(await offline()).toMatchObject({ leaf_index: target, reason: 'altered' });
      await system.db.query(`UPDATE event_ingest.events SET details = $2 WHERE seq = $1`, [await seqOf(target), JSON.stringify(before!.details)]);
      expect((await verification({ tree_size: size })).status).toBe('passed');
    }, 120_000);

    it('names a deleted event, two swapped events and a truncated tail', async () => {
      await system.db.query(`CREATE TEMP TABLE saved AS SELECT * FROM event_ingest.events WHERE seq > 200`);
      const restore = async () => {
        await system.db.query(`DELETE FROM event_ingest.events WHERE seq > 200`);
        await system.db.query(`INSERT INTO event_ingest.events SELECT * FROM saved`);
      };

      await system.db.query(`DELETE FROM event_ingest.events WHERE seq = $1`, [await seqOf(250)]);
      let job = await verification({ tree_size: size });
      expect(job.first_failure).toMatchObject({ leaf_index: 250, reason: 'missing', event_id: null });
      expect(await offline()).toMatchObject({ leaf_index: 250, reason: 'missing' });
      await restore();

      await system.db.query(`UPDATE event_ingest.events SET seq = CASE seq WHEN $1 THEN $2 ELSE $1 END WHERE seq IN ($1, $2)`, [await seqOf(260), await seqOf(270)]);
      job = await verification({ tree_size: size });
      expect(job.first_failure).toMatchObject({ leaf_index: 260, reason: 'reordered' });
      expect(await offline()).toMatchObject({ leaf_index: 260, reason: 'reordered' });
      await restore();

      await system.db.query(`DELETE FROM event_ingest.events WHERE seq > $1`, [await seqOf(500)]);
      job = await verification({ tree_size: size });
      expect(job.first_failure).toMatchObject({ leaf_index: 501, reason: 'missing' });
      expect(await offline()).toMatchObject({ leaf_index: 501, reason: 'missing' });
      await restore();
      expect((await verification({ tree_size: size })).status).toBe('passed');
    }, 180_000);

    it('rejects a forged checkpoint', async () => {
      // The newest checkpoint, over the whole built tree (the last checkpoint's own event included),
      // signed by a key that is not Vigil's under a made-up key id.
      const [state] = await system.db.query<{ tree_size: string }>(`SELECT tree_size::text FROM event_ingest.integrity_tree`);
      const built = Number(state!.tree_size);
      expect(built).toBeGreaterThan(size);
      const hashes = (await allLeaves(built)).map((l) => Buffer.from(l.leaf_hash, 'hex'));
      const { privateKey } = generateKeyPairSync('ed25519');
      const fields = { tree_size: built, root_hash: hex(mth(hashes)), timestamp: new Date().toISOString(), key_id: 'ffffffffffffffff' };
      const signature = sign(null, checkpointMessage(fields), privateKey).toString('base64');
      await system.db.query(
        `INSERT INTO event_ingest.integrity_checkpoints (tree_size, root_hash, "timestamp", key_id, signature, event_id, event_seq) VALUES ($1, $2, $3, $4, $5, 'evt_forged', $6)`,
        [fields.tree_size, Buffer.from(fields.root_hash, 'hex'), fields.timestamp, fields.key_id, signature, built + 1],
      );
      try {
        const job = await verification({ tree_size: built });
        expect(job.first_failure).toMatchObject({ reason: 'bad_signature' });
        expect(job.first_failure.detail).toContain('ffffffffffffffff');
        expect(await offline()).toMatchObject({ reason: 'bad_signature' });
      } finally {
        await system.db.query(`DELETE FROM event_ingest.integrity_checkpoints WHERE tree_size = $1`, [built]);
      }
    }, 120_000);

    it('catches a whole tree recomputed over an altered event by the signed roots', async () => {
      const target = 333;
      const leavesBefore = await allLeaves(size);
      await system.db.query(`UPDATE event_ingest.events SET details = jsonb_set(details, '{query}', '"SELECT 1"') WHERE seq = $1`, [await seqOf(target)]);
      // The attacker recomputes the altered leaf and every block, node and the tree state above it.
      const altered = (await get(`/v1/integrity/leaves?from=${target}&limit=1`)).body.data[0].event;
      const canonical = jcs({ v: 1, ...altered, ingested_by: altered.ingested_by ?? null });
      const hashes = leavesBefore.map((l) => Buffer.from(l.leaf_hash, 'hex'));
      hashes[target] = sha(Buffer.from([0]), Buffer.from(canonical));
      const [state] = await system.db.query<{ tree_size: string }>(`SELECT tree_size::text FROM event_ingest.integrity_tree`);
      const built = Number(state!.tree_size);
      const all = (await allLeaves(built)).map((l) => Buffer.from(l.leaf_hash, 'hex'));
      all[target] = hashes[target]!;
      await system.db.query(`DELETE FROM event_ingest.integrity_leaf_blocks`);
      await system.db.query(`DELETE FROM event_ingest.integrity_nodes`);
      for (let b = 0; (b + 1) * 256 <= built; b++) {
        await system.db.query(`INSERT INTO event_ingest.integrity_leaf_blocks (block, hashes) VALUES ($1, $2)`, [b, Buffer.concat(all.slice(b * 256, (b + 1) * 256))]);
      }
      for (let level = 8; 2 ** level <= built; level++) {
        for (let i = 0; (i + 1) * 2 ** level <= built; i++) {
          await system.db.query(`INSERT INTO event_ingest.integrity_nodes (level, idx, hash) VALUES ($1, $2, $3)`, [level, i, mth(all.slice(i * 2 ** level, (i + 1) * 2 ** level))]);
        }
      }
      await system.db.query(`UPDATE event_ingest.events SET leaf_hash = $2 WHERE seq = $1`, [await seqOf(target), hashes[target]]);
      const job = await verification({ tree_size: size });
      expect(job.status).toBe('failed');
      expect(job.first_failure.reason).toBe('root_mismatch');
      // The first position no signed root vouches for: at or before the altered event.
      expect(job.first_failure.leaf_index).toBeLessThanOrEqual(target);
      expect(job.first_failure.detail).toMatch(/signed root/);
      // The offline verifier names the same position, from the signed checkpoints it lists.
      const found = await offline();
      expect(found).toMatchObject({ reason: 'root_mismatch', leaf_index: job.first_failure.leaf_index });
      expect(found!.detail).toContain(`leaves ${job.first_failure.leaf_index}..`);
    }, 180_000);
  });
});
