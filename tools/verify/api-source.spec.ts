import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IntegrityApi, buildExport, verifyApi } from './api-source';
import type { SignedCheckpoint } from '@vigil/integrity';
import type { ExportLeaf } from './export-file';
import { runVerify } from './main';
import { SyntheticLog } from './synthetic-log';
import { verifyExport } from './verify-export';

/**
 * The integrity API of docs/integrity.md answered from an in-memory log, so that the verifier's
 * client (paging, proofs, narrowing, exit codes) is tested without a server; the end-to-end test
 * against a running Vigil lives with the storage.
 */
function serve(log: SyntheticLog, options: { size?: number; leaves?: ExportLeaf[]; apiKey?: string; pageLimit?: number; checkpointEvery?: number; listed?: (n: number) => SignedCheckpoint } = {}): typeof fetch {
  const size = options.size ?? log.events.length;
  const leaves = options.leaves ?? Array.from({ length: size }, (_, i) => log.leaf(i));
  // As the server: checkpoints at some sizes only (every `checkpointEvery` leaves and the last),
  // and proofs only between checkpointed sizes.
  const every = options.checkpointEvery ?? 5;
  const checkpointed = (n: number) => Number.isSafeInteger(n) && n >= 1 && n <= size && (n % every === 0 || n === size);
  const sizes = Array.from({ length: size }, (_, i) => size - i).filter(checkpointed);
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    if (options.apiKey && headers.get('authorization') !== `Bearer ${options.apiKey}`) return json(401, { code: 'invalid_token', detail: 'No valid credential.' });
    const q = (name: string) => Number(url.searchParams.get(name));
    const path = url.pathname;
    if (path === '/v1/integrity/keys') return json(200, { data: [log.publicKey] });
    if (path === '/v1/integrity/checkpoints/latest') return json(200, log.checkpoint(size));
    const bySize = /^\/v1\/integrity\/checkpoints\/(\d+)$/.exec(path);
    if (bySize) return checkpointed(Number(bySize[1])) ? json(200, log.checkpoint(Number(bySize[1]))) : json(404, { code: 'checkpoint_not_found' });
    if (path === '/v1/integrity/checkpoints') {
      const page = q('page') || 1;
      const perPage = Math.min(q('per_page') || 20, 100);
      const data = sizes.slice((page - 1) * perPage, page * perPage).map((n) => options.listed?.(n) ?? log.checkpoint(n));
      return json(200, { data, pagination: { total: sizes.length, page, per_page: perPage, has_more: page * perPage < sizes.length } });
    }
    if (path === '/v1/integrity/leaves') {
      const from = q('from');
      const limit = Math.min(q('limit'), options.pageLimit ?? 1000);
      const page = leaves.filter((l) => l.leaf_index >= from).slice(0, limit);
      const rest = leaves.filter((l) => l.leaf_index > (page.at(-1)?.leaf_index ?? Infinity));
      return json(200, { data: page, next_from: rest.length ? rest[0].leaf_index : null });
    }
    if (path === '/v1/integrity/proofs/inclusion') {
      const index = log.events.findIndex((e) => e.id === url.searchParams.get('event_id'));
      const treeSize = q('tree_size');
      if (index < 0 || index >= treeSize) return json(404, { code: 'not_found' });
      return json(200, { event_id: log.events[index].id, tree_size: treeSize, ...log.proof(index, treeSize), checkpoint: log.checkpoint(treeSize) });
    }
    if (path === '/v1/integrity/proofs/consistency') {
      if (!checkpointed(q('first')) || !checkpointed(q('second'))) return json(404, { code: 'checkpoint_not_found' });
      return json(200, { first: q('first'), second: q('second'), proof: log.consistency(q('first'), q('second')) });
    }
    return json(404, { code: 'not_found' });
  }) as typeof fetch;
}

const log = SyntheticLog.of(45);
const api = (fetchImpl: typeof fetch) => new IntegrityApi({ url: 'http://vigil.test/', apiKey: 'vgl_test', fetch: fetchImpl });

describe('verifyApi', () => {
  it('verifies the whole live log, paging through the leaves, and its consistency with a kept checkpoint', async () => {
    const report = await verifyApi(api(serve(log, { pageLimit: 7 })), { trustedKeys: [log.publicKey], trustedCheckpoint: log.checkpoint(20) });
    expect(report.failure).toBeNull();
    expect(report).toMatchObject({ ok: true, checked: 45, range: { from: 0, to: 44 }, consistent_with: { tree_size: 20 } });
  });

  it('verifies a range inside the tree with the proofs of its first and last leaf', async () => {
    const report = await verifyApi(api(serve(log, { pageLimit: 4 })), { from: 9, to: 30, trustedKeys: [log.publicKey] });
    expect(report).toMatchObject({ ok: true, checked: 22, range: { from: 9, to: 30 } });
  });

  it('names a leaf deleted from the listing, and an altered event', async () => {
    const leaves = Array.from({ length: 45 }, (_, i) => log.leaf(i)).filter((l) => l.leaf_index !== 17);
    expect((await verifyApi(api(serve(log, { leaves })))).failure).toMatchObject({ reason: 'missing', leaf_index: 17 });
    const altered = Array.from({ length: 45 }, (_, i) => log.leaf(i));
    altered[30].event!.severity = 'low';
    expect((await verifyApi(api(serve(log, { leaves: altered })))).failure).toMatchObject({ reason: 'altered', leaf_index: 30 });
  });

  it('locates a changed event whose served hash was changed with it, and two rows swapped with their hashes', async () => {
    const altered = Array.from({ length: 45 }, (_, i) => log.leaf(i));
    altered[23].event!.severity = 'critical';
    altered[23].leaf_hash = new SyntheticLog([altered[23].event!]).leafHashes[0].toString('hex');
    // Checkpoints every 5 leaves: the one of size 20 vouches for leaves 0..19, the one of 25 does not.
    const located = (await verifyApi(api(serve(log, { leaves: altered })), { trustedKeys: [log.publicKey] })).failure;
    expect(located).toMatchObject({ reason: 'root_mismatch', leaf_index: 20 });
    expect(located!.detail).toContain('leaves 20..24');
    // A checkpoint at every size pins the very leaf.
    expect((await verifyApi(api(serve(log, { leaves: altered, checkpointEvery: 1 })))).failure).toMatchObject({ reason: 'altered', leaf_index: 23, event_id: log.events[23].id });
    const swapped = Array.from({ length: 45 }, (_, i) => log.leaf(i));
    [swapped[31], swapped[38]] = [{ ...swapped[38], leaf_index: 31 }, { ...swapped[31], leaf_index: 38 }];
    expect((await verifyApi(api(serve(log, { leaves: swapped })))).failure).toMatchObject({ reason: 'root_mismatch', leaf_index: 30 });
    expect((await verifyApi(api(serve(log, { leaves: swapped, checkpointEvery: 1 })))).failure).toMatchObject({ reason: 'altered', leaf_index: 31 });
    // Without a range from leaf 0 no position can be named: the root mismatch stands.
    expect((await verifyApi(api(serve(log, { leaves: swapped })), { from: 5 })).failure).toMatchObject({ reason: 'root_mismatch', leaf_index: null });
  });

  it('searches checkpoint pages for the last one that vouches, asking few of them', async () => {
    const big = SyntheticLog.of(730);
    const leaves = Array.from({ length: 730 }, (_, i) => big.leaf(i));
    leaves[123].event!.severity = 'critical';
    leaves[123].leaf_hash = new SyntheticLog([leaves[123].event!]).leafHashes[0].toString('hex');
    const served = serve(big, { leaves, checkpointEvery: 1 }); // 730 checkpoints: 8 pages of 100
    const listings: string[] = [];
    const counting = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      if (url.pathname === '/v1/integrity/checkpoints') listings.push(url.searchParams.get('page')!);
      return served(input, init);
    }) as typeof fetch;
    expect((await verifyApi(api(counting), { trustedKeys: [big.publicKey] })).failure).toMatchObject({ reason: 'altered', leaf_index: 123, event_id: big.events[123].id });
    expect(listings.length).toBeLessThanOrEqual(6);
  });

  it('locates a difference only with checkpoints signed by the trusted keys', async () => {
    // The server also lists checkpoints of the altered listing signed by another key under the
    // same key id: they would vouch for leaves up to 40, but only the trusted key's count.
    const altered = Array.from({ length: 45 }, (_, i) => log.leaf(i));
    altered[23].event!.severity = 'critical';
    altered[23].leaf_hash = new SyntheticLog([altered[23].event!]).leafHashes[0].toString('hex');
    const forged = new SyntheticLog(altered.map((l) => l.event!), { keyId: log.keyId });
    const listed = (n: number) => (n < 45 ? forged.checkpoint(n) : log.checkpoint(n));
    const located = (await verifyApi(api(serve(log, { leaves: altered, checkpointEvery: 1, listed })), { trustedKeys: [log.publicKey] })).failure;
    expect(located).toMatchObject({ reason: 'root_mismatch', leaf_index: 0 });
    expect(located!.detail).toContain('leaves 0..44');
  });

  it('catches a tail truncated and checkpointed again: the kept checkpoint is larger', async () => {
    const report = await verifyApi(api(serve(log, { size: 30 })), { trustedKeys: [log.publicKey], trustedCheckpoint: log.checkpoint(40) });
    expect(report.failure).toMatchObject({ reason: 'inconsistent' });
  });

  it('narrows a range that starts on leaves retention dropped', async () => {
    const leaves = Array.from({ length: 45 }, (_, i) => (i < 6 ? { ...log.leaf(i), event: null, retained: false } : log.leaf(i)));
    const file = await buildExport(api(serve(log, { leaves })));
    expect(file.range).toEqual({ from: 6, to: 44 });
    expect(verifyExport(file, { trustedKeys: [log.publicKey] })).toMatchObject({ ok: true, checked: 39 });
  });
});

describe('npm run verify -- export | api', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-verify-api-'));
  const run = async (args: string[], fetchImpl: typeof fetch, env: NodeJS.ProcessEnv = { VIGIL_API_KEY: 'vgl_test' }) => {
    let out = '';
    let err = '';
    const code = await runVerify(args, { env, out: (t) => (out += t), err: (t) => (err += t), fetch: fetchImpl });
    return { code, out, err };
  };

  it('exports a range to one file that then verifies offline', async () => {
    const out = join(dir, 'export.json');
    const exported = await run(['export', '--url', 'http://vigil.test', '--from', '3', '--to', '33', '--out', out], serve(log, { apiKey: 'vgl_test' }));
    expect(exported.code).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file).toMatchObject({ format: 'vigil.integrity-export/v1', range: { from: 3, to: 33 }, checkpoint: { tree_size: 45 } });
    expect(file.leaves).toHaveLength(31);
    const verified = await run(['file', out], serve(log));
    expect(verified.code).toBe(0);
  });

  it('answers 0 for a verified live log and 1 for a failed one', async () => {
    expect((await run(['api', '--url', 'http://vigil.test'], serve(log, { apiKey: 'vgl_test' }))).code).toBe(0);
    const leaves = Array.from({ length: 45 }, (_, i) => log.leaf(i));
    [leaves[3].event, leaves[4].event] = [leaves[4].event, leaves[3].event];
    const failed = await run(['api', '--url', 'http://vigil.test', '--json'], serve(log, { leaves }));
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out).failure).toMatchObject({ reason: 'reordered', leaf_index: 3 });
  });

  it('answers 2 when the API refuses the credential or cannot be reached', async () => {
    const refused = await run(['api', '--url', 'http://vigil.test'], serve(log, { apiKey: 'vgl_other' }));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('401');
    expect(refused.err).toContain('VIGIL_API_KEY');
    const unreachable = await run(['api', '--url', 'http://vigil.test'], (async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    }) as typeof fetch);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toContain('ECONNREFUSED');
  });
});
