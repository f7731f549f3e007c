import { type CheckpointPublicKey, MerkleFrontier, type SignedCheckpoint, eventLeafHash, fromHex, isHexHash, verifyConsistency } from '@vigil/integrity';
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
    const located = await locateFirstDifference(api, file);
    if (located) report.failure = located;
  }
  return report;
}

/**
 * When every leaf matches the hash served for it but the root does not (an event changed together
 * with the hash served for it, or two rows swapped with their hashes): finds the first position
 * where the listed leaves stop being a prefix of the signed tree. The consistency proof from m
 * leaves to the checkpoint verifies against the root of the first m listed leaves exactly when
 * those m leaves are the tree's first m, so a binary search over m asks O(log n) proofs. Needs
 * the range to start at leaf 0 and the API to serve proofs from any size; null otherwise.
 */
export async function locateFirstDifference(api: IntegrityApi, file: ExportFile): Promise<VerificationFailure | null> {
  const cp = file.checkpoint;
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
  const signedRoot = fromHex(cp.root_hash);
  const isPrefix = async (m: number): Promise<boolean> => {
    if (m === cp.tree_size) return prefixRoot(m).equals(signedRoot);
    const proof = await api.consistency(m, cp.tree_size);
    if (!Array.isArray(proof) || !proof.every(isHexHash)) throw new SourceError('malformed consistency proof');
    return verifyConsistency(m, cp.tree_size, prefixRoot(m), signedRoot, proof.map(fromHex));
  };
  try {
    let good = 0; // the first `good` leaves are the tree's (0: trivially)
    let bad = hashes.length; // the first `bad` leaves are not
    if (await isPrefix(bad)) return null; // the difference lies beyond the listed leaves
    while (bad - good > 1) {
      const mid = good + Math.floor((bad - good) / 2);
      if (await isPrefix(mid)) good = mid;
      else bad = mid;
    }
    const index = bad - 1;
    const event = file.leaves[index].event;
    return {
      leaf_index: index,
      event_id: event && typeof event.id === 'string' ? event.id : null,
      reason: 'altered',
      detail: `the first ${index} leaves are the signed tree's, the first ${index + 1} are not: leaf ${index} was changed, or replaced by another event together with the hash served for it`,
    };
  } catch (error) {
    if (error instanceof SourceError) return null;
    throw error;
  }
}

export { consistencyProblem };
