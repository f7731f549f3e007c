import type { KeyObject } from 'node:crypto';
import {
  type CheckpointPublicKey,
  type LeafEvent,
  MerkleFrontier,
  type SignedCheckpoint,
  consistencyProof,
  eventLeafHash,
  generateCheckpointKey,
  inclusionPath,
  publicKeyToBase64,
  signCheckpoint,
  toHex,
} from '@vigil/integrity';
import { EXPORT_FORMAT, type ExportFile, type ExportLeaf } from './export-file';

const TYPES = ['query.select', 'query.update', 'query.delete', 'session.start', 'policy.violation', 'user.login_success'] as const;
const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
const USERS = ['alice', 'bob', 'carol', 'etl_job', 'reporting'];
const TABLES = ['accounts', 'cards', 'orders', 'patients', 'ledger_entries'];

/**
 * A published event shaped like what `GET /v1/events/{id}` returns for a proxy-captured query:
 * about 600 bytes of canonical JSON, nested details, a mix of types. Deterministic in `i`.
 */
export function syntheticEvent(i: number): LeafEvent {
  const ms = Date.UTC(2026, 10, 25, 12) + i * 7;
  const table = TABLES[i % TABLES.length];
  const user = USERS[(i * 7) % USERS.length];
  const violation = i % 50 === 0;
  return {
    id: `evt_${i.toString(36).padStart(12, '0')}`,
    type: violation ? 'policy.violation' : TYPES[i % 4],
    severity: violation ? 'high' : SEVERITIES[i % 2],
    database_id: `db_${['main', 'billing', 'clinical'][i % 3]}`,
    timestamp: new Date(ms).toISOString(),
    processed_at: new Date(ms + 3).toISOString(),
    details: {
      user,
      database_user: `${user}_rw`,
      client_addr: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      application_name: 'psql',
      session_id: `ses_${(i >> 4).toString(36)}`,
      query: `SELECT id, holder, last4, expires_at FROM ${table} WHERE customer_id = $1 AND created_at > $2 ORDER BY created_at DESC LIMIT 50`,
      tables: [table],
      rows: (i * 13) % 500,
      duration_ms: ((i * 31) % 2000) / 10,
      command: 'SELECT',
      parameters_redacted: true,
    },
    context: { policy_id: violation ? 'pol_pci_cards' : null, rule_id: violation ? 'rule_bulk_read' : null, risk_score: (i * 17) % 101 },
    producer_id: i % 3 === 0 ? 'pg-proxy-1' : null,
    ingested_by: { kind: i % 3 === 0 ? 'proxy' : 'api_key', id: i % 3 === 0 ? 'pg-proxy-1' : 'key_ingest_01' },
  };
}

/**
 * An in-memory log built the way the server builds its own: events as leaves, every subtree hash
 * kept, checkpoints signed with a generated key. Tests tamper with its exports.
 */
export class SyntheticLog {
  readonly events: LeafEvent[];
  readonly leafHashes: Buffer[];
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: CheckpointPublicKey;
  /** levels[l][i] = hash of the perfect subtree (l, i). */
  private readonly levels: Buffer[][] = [[]];

  constructor(events: LeafEvent[], options: { keyId?: string; privateKey?: KeyObject } = {}) {
    this.events = events;
    this.keyId = options.keyId ?? 'ckey_test_1';
    const key = options.privateKey ? { privateKey: options.privateKey } : generateCheckpointKey();
    this.privateKey = key.privateKey;
    this.publicKey = { key_id: this.keyId, algorithm: 'Ed25519', public_key: publicKeyToBase64(this.privateKey), valid_from: '2026-01-01T00:00:00.000Z', valid_until: null, status: 'active' };
    this.leafHashes = events.map(eventLeafHash);
    const frontier = new MerkleFrontier();
    for (const h of this.leafHashes) {
      this.levels[0].push(h);
      for (const s of frontier.append(h)) (this.levels[s.level] ??= [])[s.index] = s.hash;
    }
  }

  static of(count: number, options: { keyId?: string; privateKey?: KeyObject } = {}): SyntheticLog {
    return new SyntheticLog(Array.from({ length: count }, (_, i) => syntheticEvent(i)), options);
  }

  hashAt = (level: number, index: number): Buffer => {
    const h = this.levels[level]?.[index];
    if (!h) throw new Error(`no subtree (${level}, ${index})`);
    return h;
  };

  root(size = this.events.length): Buffer {
    const frontier = MerkleFrontier.fromSubtrees(size, this.hashAt);
    return frontier.root();
  }

  checkpoint(size = this.events.length, timestamp = '2026-11-25T18:00:00.000Z'): SignedCheckpoint {
    return signCheckpoint({ tree_size: size, root_hash: toHex(this.root(size)), timestamp, key_id: this.keyId }, this.privateKey);
  }

  leaf(index: number): ExportLeaf {
    return { leaf_index: index, leaf_hash: toHex(this.leafHashes[index]), event: structuredClone(this.events[index]) as ExportLeaf['event'], retained: true };
  }

  proof(index: number, size = this.events.length) {
    return { leaf_index: index, leaf_hash: toHex(this.leafHashes[index]), audit_path: inclusionPath(index, size, this.hashAt).map(toHex) };
  }

  consistency(first: number, second: number): string[] {
    return consistencyProof(first, second, this.hashAt).map(toHex);
  }

  /** An honest export of from..to against the checkpoint of `size`. */
  export(from = 0, to = this.events.length - 1, size = this.events.length): ExportFile {
    const leaves: ExportLeaf[] = [];
    for (let i = from; i <= to; i++) leaves.push(this.leaf(i));
    return {
      format: EXPORT_FORMAT,
      exported_at: '2026-11-25T18:00:01.000Z',
      source: null,
      keys: [this.publicKey],
      checkpoint: this.checkpoint(size),
      range: { from, to },
      leaves,
      proofs: { first: this.proof(from, size), last: this.proof(to, size) },
      consistency: null,
    };
  }
}
