/**
 * Verification speed of the tamper-evident log (docs/integrity.md#verification-speed).
 *
 *   npm run bench:integrity-verify                 (1,000,000 events; BENCH_EVENTS to change)
 *
 * 1. Offline verification throughput on one core: the verifier's own `verifyExport` over an export
 *    of BENCH_EVENTS realistic published events (canonical JSON of each event, leaf hash, compare
 *    with the tree's hash, fold into the tree, root and signature). Target: >= 200,000 events/s.
 *    Baseline in the same run: bare SHA-256 of the same canonical bytes (computed beforehand), the
 *    floor any verifier must pay; the ratio says what the rest costs.
 * 2. Inclusion and consistency proofs at 10,000,000 leaves from an in-memory subtree store that,
 *    like a database table would, keeps levels >= 4 and folds lower levels from leaf hashes on
 *    demand. Target: inclusion proof p95 < 20 ms (this is the proof computation; the store's query
 *    time comes on top and is measured by the storage benchmark).
 *
 * Rates are per second of CPU time the process got (one core: this is single-threaded) and per
 * second of wall-clock time; on a shared machine the first is "events per second on one core".
 */
import { hash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import {
  MerkleFrontier,
  consistencyProof,
  eventLeafHashHex,
  eventLeafText,
  inclusionPath,
  nodeHash,
  signCheckpoint,
  generateCheckpointKey,
  publicKeyToBase64,
  toHex,
  verifyConsistency,
  verifyInclusion,
  leafHash,
  type SubtreeHashes,
} from '@vigil/integrity';
import { percentile } from '../lib/stats';
import { EXPORT_FORMAT, type ExportFile, type ExportLeaf } from '../../tools/verify/export-file';
import { syntheticEvent } from '../../tools/verify/synthetic-log';
import { verifyExport } from '../../tools/verify/verify-export';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PROOF_TREE = Number(process.env.BENCH_PROOF_LEAVES ?? 10_000_000);
const PROOFS = 10_000;

function timed<T>(fn: () => T): { value: T; cpuS: number; wallS: number } {
  const c0 = cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = fn();
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = cpuUsage(c0);
  return { value, cpuS: (c.user + c.system) / 1e6, wallS };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function verificationThroughput(): void {
  console.log(`\n== Offline verification of ${fmt(EVENTS)} events (verifyExport, one core) ==`);
  const events = Array.from({ length: EVENTS }, (_, i) => syntheticEvent(i));
  const texts = events.map(eventLeafText);
  const avgBytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0) / texts.length;
  console.log(`canonical leaf bytes per event: ${avgBytes.toFixed(0)} on average`);
  const frontier = new MerkleFrontier();
  const leaves: ExportLeaf[] = events.map((event, i) => {
    const h = leafHash(texts[i]);
    frontier.append(h);
    return { leaf_index: i, leaf_hash: toHex(h), event: event as ExportLeaf['event'], retained: true };
  });
  const key = generateCheckpointKey();
  const keys = [{ key_id: 'ckey_bench', algorithm: 'Ed25519', public_key: publicKeyToBase64(key.privateKey), valid_from: null, valid_until: null }];
  const checkpoint = signCheckpoint({ tree_size: EVENTS, root_hash: toHex(frontier.root()), timestamp: new Date().toISOString(), key_id: 'ckey_bench' }, key.privateKey);
  const file: ExportFile = {
    format: EXPORT_FORMAT,
    exported_at: new Date().toISOString(),
    source: null,
    keys,
    checkpoint,
    range: { from: 0, to: EVENTS - 1 },
    leaves,
    proofs: { first: null, last: null },
  };

  // Baseline: the bare SHA-256 of the same bytes (prefix included), nothing else.
  let sink = 0;
  const base = timed(() => {
    for (const t of texts) sink ^= hash('sha256', '\u0000' + t, 'buffer')[0];
  });
  const runs = [1, 2, 3].map(() => {
    const r = timed(() => verifyExport(file, { trustedKeys: keys }));
    if (!r.value.ok) throw new Error(`verification failed: ${JSON.stringify(r.value.failure)}`);
    return r;
  });
  // Canonical form alone and leaf hash alone, to show where the time goes.
  const canon = timed(() => {
    for (const e of events) sink ^= eventLeafText(e).length;
  });
  const leafOnly = timed(() => {
    for (const e of events) sink ^= eventLeafHashHex(e).length;
  });
  const best = runs.reduce((a, b) => (a.cpuS < b.cpuS ? a : b));
  const rate = (s: number) => EVENTS / s;
  console.log(`bare SHA-256 of the canonical bytes : ${fmt(rate(base.cpuS))} events/s CPU (${fmt(rate(base.wallS))} wall)`);
  console.log(`canonical JSON only                 : ${fmt(rate(canon.cpuS))} events/s CPU`);
  console.log(`canonical JSON + leaf hash (hex)    : ${fmt(rate(leafOnly.cpuS))} events/s CPU`);
  runs.forEach((r, i) => console.log(`verifyExport run ${i + 1}                  : ${fmt(rate(r.cpuS))} events/s CPU (${fmt(rate(r.wallS))} wall)`));
  console.log(`verification / bare SHA-256 ratio   : ${(rate(best.cpuS) / rate(base.cpuS)).toFixed(2)} (best run)`);
  console.log(`RESULT verification ${fmt(rate(best.cpuS))} events/s on one core (target >= 200,000): ${rate(best.cpuS) >= 200_000 ? 'PASS' : 'FAIL'}`);
  if (sink === 0.5) console.log('');
}

/** Subtree hashes of a tree of `size` leaves: levels >= STORED_FROM in memory, lower ones folded on demand. */
class InMemorySubtrees {
  static readonly STORED_FROM = 4;
  private readonly levels: Buffer[] = [];
  constructor(readonly size: number) {}

  static leaf(i: number): Buffer {
    const b = Buffer.allocUnsafe(8);
    b.writeDoubleBE(i);
    return leafHash(b);
  }

  build(): void {
    const frontier = new MerkleFrontier();
    for (let level = InMemorySubtrees.STORED_FROM; 2 ** level <= this.size; level++) this.levels[level] = Buffer.alloc(Math.floor(this.size / 2 ** level) * 32);
    for (let i = 0; i < this.size; i++) {
      for (const s of frontier.append(InMemorySubtrees.leaf(i))) {
        if (s.level >= InMemorySubtrees.STORED_FROM) s.hash.copy(this.levels[s.level], s.index * 32);
      }
    }
  }

  hashAt: SubtreeHashes = (level, index) => {
    if (level >= InMemorySubtrees.STORED_FROM) return this.levels[level].subarray(index * 32, index * 32 + 32);
    if (level === 0) return InMemorySubtrees.leaf(index);
    return nodeHash(this.hashAt(level - 1, index * 2), this.hashAt(level - 1, index * 2 + 1));
  };
}

function proofTimes(): void {
  console.log(`\n== Proofs at ${fmt(PROOF_TREE)} leaves (in-memory subtree store, levels >= ${InMemorySubtrees.STORED_FROM} kept) ==`);
  const store = new InMemorySubtrees(PROOF_TREE);
  const build = timed(() => store.build());
  console.log(`tree built through MerkleFrontier.append: ${build.wallS.toFixed(1)} s wall (${fmt(PROOF_TREE / build.cpuS)} leaves/s CPU, leaf hashing included)`);
  const root = MerkleFrontier.fromSubtrees(PROOF_TREE, store.hashAt).root();
  const inclusion: number[] = [];
  let state = 12345;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < PROOFS; i++) {
    const index = Math.floor(random() * PROOF_TREE);
    const t0 = process.hrtime.bigint();
    const path = inclusionPath(index, PROOF_TREE, store.hashAt);
    inclusion.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!verifyInclusion(index, PROOF_TREE, InMemorySubtrees.leaf(index), path, root)) throw new Error(`inclusion proof of ${index} does not verify`);
  }
  inclusion.sort((a, b) => a - b);
  const p95 = percentile(inclusion, 95);
  console.log(`inclusion proof (${fmt(PROOFS)} random leaves): p50 ${percentile(inclusion, 50).toFixed(3)} ms, p95 ${p95.toFixed(3)} ms, p99 ${percentile(inclusion, 99).toFixed(3)} ms, max ${inclusion[inclusion.length - 1].toFixed(3)} ms`);
  const consistency: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const first = 1 + Math.floor(random() * (PROOF_TREE - 1));
    const t0 = process.hrtime.bigint();
    const proof = consistencyProof(first, PROOF_TREE, store.hashAt);
    consistency.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const firstRoot = MerkleFrontier.fromSubtrees(first, store.hashAt).root();
    if (!verifyConsistency(first, PROOF_TREE, firstRoot, root, proof)) throw new Error(`consistency proof ${first} -> ${PROOF_TREE} does not verify`);
  }
  consistency.sort((a, b) => a - b);
  console.log(`consistency proof (1,000 random first sizes): p50 ${percentile(consistency, 50).toFixed(3)} ms, p95 ${percentile(consistency, 95).toFixed(3)} ms`);
  console.log(`RESULT inclusion proof p95 ${p95.toFixed(3)} ms at ${fmt(PROOF_TREE)} leaves (target < 20 ms): ${p95 < 20 ? 'PASS' : 'FAIL'}`);
}

console.log(`Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
verificationThroughput();
proofTimes();
