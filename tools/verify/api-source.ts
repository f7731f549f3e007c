import { type CheckpointPublicKey, MerkleFrontier, type SignedCheckpoint, checkCheckpoint, eventLeafHash, fromHex, isHexHash } from '@vigil/integrity';
import { EXPORT_FORMAT, type ExportFile, type ExportLeaf, type ExportProof } from './export-file';
import { type VerificationFailure, type VerificationReport, type VerifyOptions, consistencyProblem, verifyExport } from './verify-export';

/** A connection or protocol problem (exit code 2), as opposed to a verification failure. */
export class SourceError extends Error {}

const LEAVES_PAGE = 1000;

/**
 * Reads the public integrity API (docs/integrity.md). Nothing it returns is trusted: the verifier
 * checks every answer against signatures and hashes. The credential (`VIGIL_API_KEY`) needs the
 * scope read:logs.
 */
export class IntegrityApi {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(options: { url: string; apiKey?: string; fetch?: typeof fetch }) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new SourceError(`not a URL: ${options.url}`);
    }
    this.baseUrl = url.origin + url.pathname.replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
    this.fetchImpl = options.fetch ?? fetch;
  }

  async get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'vigil-verify' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new SourceError(`cannot reach ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      let detail = text.slice(0, 300);
      try {
        const problem = JSON.parse(text) as { detail?: string; title?: string; code?: string };
        detail = [problem.code, problem.detail ?? problem.title].filter(Boolean).join(': ');
      } catch {
        // not a problem document: keep the text
      }
      const hint = response.status === 401 || response.status === 403 ? ' (set VIGIL_API_KEY to a key with the scope read:logs)' : '';
      throw new SourceError(`GET ${url.pathname}${url.search} answered ${response.status}${detail ? ` ${detail}` : ''}${hint}`);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new SourceError(`GET ${url.pathname} did not answer JSON`);
    }
  }

  async keys(): Promise<CheckpointPublicKey[]> {
    return (await this.get<{ data: CheckpointPublicKey[] }>('/v1/integrity/keys')).data;
  }

  checkpoint(treeSize?: number): Promise<SignedCheckpoint> {
    return this.get<SignedCheckpoint>(treeSize === undefined ? '/v1/integrity/checkpoints/latest' : `/v1/integrity/checkpoints/${treeSize}`);
  }

  /** One page of checkpoints, newest first (`per_page` at most 100). */
  checkpoints(page: number, perPage: number): Promise<{ data: SignedCheckpoint[]; pagination?: { total?: number } }> {
    return this.get('/v1/integrity/checkpoints', { page, per_page: perPage });
  }

  async consistency(first: number, second: number): Promise<string[]> {
    return (await this.get<{ proof: string[] }>('/v1/integrity/proofs/consistency', { first, second })).proof;
  }

  async inclusion(eventId: string, treeSize: number): Promise<ExportProof> {
    const answer = await this.get<{ leaf_index: number; leaf_hash: string; audit_path: string[] }>('/v1/integrity/proofs/inclusion', { event_id: eventId, tree_size: treeSize });
    return { leaf_index: answer.leaf_index, leaf_hash: answer.leaf_hash, audit_path: answer.audit_path };
  }

  /** The leaves `from..to` as listed, in the listing's order (gaps and all: the verifier judges them). */
  async leaves(from: number, to: number, onPage?: (count: number) => void): Promise<ExportLeaf[]> {
    const out: ExportLeaf[] = [];
    let next: number | null = from;
    while (next !== null && next <= to) {
      const page: { data: ExportLeaf[]; next_from: number | null } = await this.get('/v1/integrity/leaves', { from: next, limit: Math.min(LEAVES_PAGE, to - next + 1) });
      for (const leaf of page.data) if (leaf.leaf_index <= to) out.push(leaf);
      onPage?.(out.length);
      if (page.next_from !== null && page.next_from <= next) throw new SourceError(`GET /v1/integrity/leaves?from=${next} answered next_from ${page.next_from}: not advancing`);
      next = page.data.length === 0 ? null : page.next_from;
    }
    return out;
  }
}

export interface ExportRequest {
  from?: number;
  to?: number;
  /** A checkpointed tree size; the latest checkpoint when absent. */
  treeSize?: number;
  /** Adds a consistency proof from this checkpoint to the exported one. */
  since?: SignedCheckpoint;
  onProgress?: (message: string) => void;
}

/**
 * Reads one export from the API: keys, a checkpoint, the leaves of the range and the inclusion
 * proofs of the range's first and last leaf. A range starting or ending on leaves retention
 * dropped is narrowed to the retained leaves inside it (their events are needed to ask for proofs).
 */
export async function buildExport(api: IntegrityApi, request: ExportRequest = {}): Promise<ExportFile> {
  const keys = await api.keys();
  const checkpoint = await api.checkpoint(request.treeSize);
  if (!Number.isSafeInteger(checkpoint.tree_size) || checkpoint.tree_size < 1) throw new SourceError('the checkpoint holds no leaves: nothing to export');
  let from = request.from ?? 0;
  let to = request.to ?? checkpoint.tree_size - 1;
  if (from < 0 || to < from) throw new SourceError(`--from ${from} --to ${to} is not a range`);
  if (to >= checkpoint.tree_size) throw new SourceError(`--to ${to} is beyond the checkpoint's tree (${checkpoint.tree_size} leaves, last index ${checkpoint.tree_size - 1})`);

  let leaves = await api.leaves(from, to, (n) => request.onProgress?.(`read ${n} leaves`));
  const firstKept = leaves.findIndex((l) => l.event);
  if (firstKept < 0) throw new SourceError(`no leaf of ${from}..${to} still has its event (retention): nothing to verify`);
  const lastKept = leaves.length - 1 - [...leaves].reverse().findIndex((l) => l.event);
  // Narrow only over leaves that are listed and dropped; a gap (a missing leaf) stays for the verifier.
  if (leaves[0].leaf_index === from && firstKept > 0 && leaves.slice(0, firstKept).every((l, i) => l.leaf_index === from + i && !l.retained)) {
    from = leaves[firstKept].leaf_index;
    request.onProgress?.(`the range starts on leaves retention dropped: exporting from ${from}`);
  }
  const tail = leaves.length - 1 - lastKept;
  if (leaves[leaves.length - 1].leaf_index === to && tail > 0 && leaves.slice(lastKept + 1).every((l, i) => l.leaf_index === leaves[lastKept].leaf_index + 1 + i && !l.retained)) {
    to = leaves[lastKept].leaf_index;
    request.onProgress?.(`the range ends on leaves retention dropped: exporting up to ${to}`);
  }
  leaves = leaves.filter((l) => l.leaf_index >= from && l.leaf_index <= to);

  const proofFor = async (index: number): Promise<ExportProof | null> => {
    const leaf = leaves.find((l) => l.leaf_index === index);
    return leaf?.event ? api.inclusion(String(leaf.event.id), checkpoint.tree_size) : null;
  };
  // Leaves at the edges of the tree need no proof on that side; asking costs little and documents it.
  const first = await proofFor(from);
  const last = to === from ? first : await proofFor(to);

  let consistency: ExportFile['consistency'] = null;
  if (request.since && request.since.tree_size < checkpoint.tree_size) {
    consistency = { first: request.since.tree_size, second: checkpoint.tree_size, proof: await api.consistency(request.since.tree_size, checkpoint.tree_size) };
  }
  return {
    format: EXPORT_FORMAT,
    exported_at: new Date().toISOString(),
    source: api.baseUrl,
    keys,
    checkpoint,
    range: { from, to },
    leaves,
    proofs: { first, last },
    consistency,
  };
}

export interface ApiVerifyRequest extends VerifyOptions {
  from?: number;
  to?: number;
  onProgress?: (message: string) => void;
}

/**
 * Verifies the live log: the latest checkpoint's signature, its consistency with the checkpoint
 * the auditor kept, and every leaf of the range (the whole tree by default) against it.
 */
export async function verifyApi(api: IntegrityApi, request: ApiVerifyRequest = {}): Promise<VerificationReport> {
  const file = await buildExport(api, { from: request.from, to: request.to, since: request.trustedCheckpoint, onProgress: request.onProgress });
  if (request.trustedCheckpoint && request.trustedCheckpoint.tree_size > file.checkpoint.tree_size) {
    // No proof can exist; verifyExport reports the shrink.
    file.consistency = null;
  }
  const report = verifyExport(file, request);
  if (report.failure?.reason === 'root_mismatch' && report.failure.leaf_index === null) {
    request.onProgress?.('the root differs: locating the first leaf that differs with consistency proofs');
    const located = await locateFirstDifference(api, file, request.trustedKeys ?? file.keys);
    if (located) report.failure = located;
  }
  return report;
}

/**
 * When every leaf matches the hash served for it but the root does not (events changed together
 * with the hashes served for them, rows swapped with their hashes, or the whole tree recomputed):
 * finds how far the listed leaves are the signed tree's, from the signed checkpoints alone. A
 * checkpoint signed by a trusted key whose root is the root of the first `s` listed leaves vouches
 * for them; none after the first difference can. The checkpoints are listed newest first, so a
 * binary search over their pages asks O(log pages) requests. The answer is the size `good` of the
 * largest checkpoint that vouches (0 if none) and the size `bad` of the next signed checkpoint,
 * which does not: the first difference lies in `good..bad-1` (exactly at `good` when the two are
 * one leaf apart). Nothing the server serves but signed checkpoints is trusted. Needs the range
 * to start at leaf 0; null otherwise, or when no signed checkpoint within the listed leaves fails.
 */
export async function locateFirstDifference(api: IntegrityApi, file: ExportFile, keys: CheckpointPublicKey[] = file.keys): Promise<VerificationFailure | null> {
  if (file.range.from !== 0 || file.leaves.length !== file.range.to + 1) return null;
  const hashes: Buffer[] = [];
  for (const leaf of file.leaves) {
    try {
      hashes.push(leaf.event ? eventLeafHash(leaf.event) : fromHex(leaf.leaf_hash));
    } catch {
      return null;
    }
  }
  // Every subtree hash of the listed leaves, to get the root of any prefix in O(log n).
  const levels: Buffer[][] = [hashes];
  const frontier = new MerkleFrontier();
  for (const h of hashes) for (const s of frontier.append(h)) (levels[s.level] ??= [])[s.index] = s.hash;
  const prefixRoot = (m: number) => MerkleFrontier.fromSubtrees(m, (level, index) => levels[level][index]).root();
  /** A checkpoint over the listed leaves, signed by a trusted key: whether its root is theirs. */
  const judge = (cp: SignedCheckpoint): 'vouches' | 'differs' | null => {
    if (!cp || !Number.isSafeInteger(cp.tree_size) || cp.tree_size < 1 || cp.tree_size > hashes.length) return null;
    if (!checkCheckpoint(cp, keys).ok || !isHexHash(cp.root_hash)) return null;
    return prefixRoot(cp.tree_size).equals(fromHex(cp.root_hash)) ? 'vouches' : 'differs';
  };

  const PER_PAGE = 100;
  const pages = new Map<number, SignedCheckpoint[]>();
  let total = 0;
  const page = async (n: number): Promise<SignedCheckpoint[]> => {
    let list = pages.get(n);
    if (!list) {
      const answer = await api.checkpoints(n, PER_PAGE);
      list = Array.isArray(answer.data) ? answer.data : [];
      pages.set(n, list);
      if (n === 1) total = Number(answer.pagination?.total);
    }
    return list;
  };
  try {
    await page(1);
    const last = Number.isSafeInteger(total) && total > 0 ? Math.ceil(total / PER_PAGE) : 1;
    // The first (newest) page holding a checkpoint that vouches; last + 1 when none does.
    let lo = 1;
    let hi = last + 1;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if ((await page(mid)).some((cp) => judge(cp) === 'vouches')) hi = mid;
      else lo = mid + 1;
    }
    let good = 0;
    if (lo <= last) for (const cp of await page(lo)) if (judge(cp) === 'vouches') good = Math.max(good, cp.tree_size);
    let bad = Infinity;
    const near = [...(lo <= last ? await page(lo) : []), ...(lo > 1 ? await page(lo - 1) : []), file.checkpoint];
    for (const cp of near) if (cp.tree_size > good && judge(cp) === 'differs') bad = Math.min(bad, cp.tree_size);
    if (bad === Infinity) return null;
    const event = file.leaves[good].event;
    const eventId = event && typeof event.id === 'string' ? event.id : null;
    if (bad === good + 1) {
      return {
        leaf_index: good,
        event_id: eventId,
        reason: 'altered',
        detail: `the signed checkpoint of tree size ${good} vouches for the first ${good} leaves, the one of tree size ${bad} does not: leaf ${good} was changed, or replaced by another event together with the hash served for it`,
      };
    }
    return {
      leaf_index: good,
      event_id: eventId,
      reason: 'root_mismatch',
      detail:
        `leaves 0..${good - 1} are those of the signed checkpoint of tree size ${good}` +
        `${good === 0 ? ' (none: no signed checkpoint vouches for the listed leaves)' : ''}; the signed checkpoint of tree size ${bad} does not match the listed leaves: ` +
        `the first difference lies in leaves ${good}..${bad - 1} (events changed together with the hashes served for them, or the tree recomputed)`,
    };
  } catch (error) {
    if (error instanceof SourceError) return null;
    throw error;
  }
}

export { consistencyProblem };
