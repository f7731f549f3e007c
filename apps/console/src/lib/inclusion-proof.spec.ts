import { canonicalJson, checkCheckpoint, eventLeafText, type InclusionProof, leafHashHex, type LeafEvent, type PublicKey, rootFromInclusionPath, toHex, verifyInclusion } from './inclusion-proof';

const subtle = globalThis.crypto.subtle;

// An event and a proof made by the server's own code (libs/integrity: eventLeafText,
// inclusionPath, signCheckpoint with node:crypto) for leaf 5 of a 7-leaf tree, written down here:
// the browser module must reach the same leaf, root and signature check independently.
const EVENT = {
  id: 'evt_01jfixture',
  type: 'database.query',
  severity: 'warning',
  database_id: 'db_main',
  timestamp: '2026-11-25T17:59:59.123Z',
  processed_at: '2026-11-25T18:00:00.456Z',
  details: { query: 'SELECT "\u00f6\u20ac\ud83d\ude00" FROM t -- \u0001', user: 'alice', '10': 1, '2': [1.5, -0, 1e30, null, true], nested: { b: 'x', a: '\ud800' } },
  context: { policy_id: 'pol_1', rule_id: null, risk_score: 42 },
  producer_id: null,
  ingested_by: { kind: 'api_key', id: 'key_1' },
  // Not in the leaf:
  database_name: 'ignored',
  related_events: ['evt_x'],
} as LeafEvent;
const SERVER_TEXT = "{\"context\":{\"policy_id\":\"pol_1\",\"risk_score\":42,\"rule_id\":null},\"database_id\":\"db_main\",\"details\":{\"10\":1,\"2\":[1.5,0,1e+30,null,true],\"nested\":{\"a\":\"\\ud800\",\"b\":\"x\"},\"query\":\"SELECT \\\"\u00f6\u20ac\ud83d\ude00\\\" FROM t -- \\u0001\",\"user\":\"alice\"},\"id\":\"evt_01jfixture\",\"ingested_by\":{\"id\":\"key_1\",\"kind\":\"api_key\"},\"processed_at\":\"2026-11-25T18:00:00.456Z\",\"producer_id\":null,\"severity\":\"warning\",\"timestamp\":\"2026-11-25T17:59:59.123Z\",\"type\":\"database.query\",\"v\":1}";
const PROOF: InclusionProof = {
  "event_id": "evt_01jfixture",
  "leaf_index": 5,
  "tree_size": 7,
  "leaf_hash": "e522d7c49f03dd4c8b651f6b65586e8cd5fca4ee6d35b8c048918e26e743ee1d",
  "audit_path": [
    "83115f8947955fafdc2a27e7f4c0854bbd8da27bb1b3e3405db571c9af8dbe1a",
    "fb7f869ce8b7b51fdf719fc8c21a4736c98cc160a825606a81f78a7f4d2261d9",
    "4f631084a157c54f54fcfb23ff5eb8650c4ba160c295bb13a9832b109d52677e"
  ],
  "checkpoint": {
    "tree_size": 7,
    "root_hash": "ab67a06901ad3b71023439c65523e2634129d18c17088f2a7c659d703fb1a9f9",
    "timestamp": "2026-11-25T18:00:01.000Z",
    "key_id": "ckpt-2026-11",
    "signature": "tf1roc5PX71sthWW54I7YeJc/6puk9oqlkHL6O5yQMRTlPxnMNVKdgD/1Y6QK+euoA51q1JJT9jnluF2rlt/BQ=="
  }
};
const KEY: PublicKey = {"key_id": "ckpt-2026-11", "algorithm": "Ed25519", "public_key": "f7ZCWo60G9wMz9rEz9IWLqDQPHvzclILHQxsZvI/dV8=", "valid_from": "2026-11-01T00:00:00.000Z", "valid_until": null};

const clone = <T>(value: T): T => structuredClone(value);

describe('canonical JSON (RFC 8785)', () => {
  it('sorts members by UTF-16 code units, writes numbers and strings as ECMAScript does, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], '\u20ac': 1, '\r': 2, '1': 3, '\u0080': 4, '\ud83d\ude00': 5, '\ufb33': 6 })).toBe(
      '{"\\r":2,"1":3,"a":[true,null,"x"],"b":1,"\u0080":4,"\u20ac":1,"\ud83d\ude00":5,"\ufb33":6}',
    );
    expect(canonicalJson([1e30, 0.002, -0, 1e-7, 333333333.3333333])).toBe('[1e+30,0.002,0,1e-7,333333333.3333333]');
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
  });

  it('writes an event leaf exactly as the server does', () => {
    expect(eventLeafText(EVENT)).toBe(SERVER_TEXT);
  });
});

describe('inclusion proofs (RFC 9162) and checkpoints, with WebCrypto', () => {
  it('verifies the server-made proof: leaf, root and Ed25519 signature', async () => {
    expect(await leafHashHex(subtle, eventLeafText(EVENT))).toBe(PROOF.leaf_hash);
    expect(await verifyInclusion(subtle, EVENT, PROOF, [KEY])).toEqual({ ok: true, tree_size: 7, key_id: 'ckpt-2026-11', leaf_index: 5, root_hash: PROOF.checkpoint.root_hash });
  });

  it('refuses a tampered event: its recomputed leaf is not the one the log holds', async () => {
    const tampered = clone(EVENT);
    (tampered.details as Record<string, unknown>).user = 'mallory';
    expect(await verifyInclusion(subtle, tampered, PROOF, [KEY])).toMatchObject({ ok: false, reason: 'leaf_mismatch' });
    // ... and when the served leaf hash was changed with it, the root gives it away.
    const proof = { ...PROOF, leaf_hash: await leafHashHex(subtle, eventLeafText(tampered)) };
    expect(await verifyInclusion(subtle, tampered, proof, [KEY])).toMatchObject({ ok: false, reason: 'root_mismatch' });
    const risk = clone(EVENT);
    risk.context.risk_score = 41;
    expect(await verifyInclusion(subtle, risk, PROOF, [KEY])).toMatchObject({ ok: false, reason: 'leaf_mismatch' });
  });

  it('refuses a tampered path, index, size or root', async () => {
    const flipped = PROOF.audit_path.map((h, i) => (i === 1 ? `${h[0] === '0' ? '1' : '0'}${h.slice(1)}` : h));
    expect(await verifyInclusion(subtle, EVENT, { ...PROOF, audit_path: flipped }, [KEY])).toMatchObject({ ok: false, reason: 'root_mismatch' });
    expect(await verifyInclusion(subtle, EVENT, { ...PROOF, audit_path: PROOF.audit_path.slice(0, 2) }, [KEY])).toMatchObject({ ok: false, reason: 'root_mismatch' });
    expect(await verifyInclusion(subtle, EVENT, { ...PROOF, leaf_index: 4 }, [KEY])).toMatchObject({ ok: false, reason: 'root_mismatch' });
    expect(await verifyInclusion(subtle, EVENT, { ...PROOF, tree_size: 8 }, [KEY])).toMatchObject({ ok: false, reason: 'malformed' });
    expect(await verifyInclusion(subtle, EVENT, { ...PROOF, event_id: 'evt_other' }, [KEY])).toMatchObject({ ok: false, reason: 'wrong_event' });
    // A root changed in the checkpoint breaks its signature.
    const root = { ...PROOF, checkpoint: { ...PROOF.checkpoint, root_hash: PROOF.audit_path[0]! } };
    expect(await verifyInclusion(subtle, EVENT, root, [KEY])).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('checks the checkpoint against the published keys: unknown key, validity, another key, a bad signature', async () => {
    expect(await checkCheckpoint(subtle, PROOF.checkpoint, [])).toMatchObject({ ok: false, reason: 'unknown_key' });
    expect(await checkCheckpoint(subtle, PROOF.checkpoint, [{ ...KEY, valid_until: '2026-11-20T00:00:00.000Z' }])).toMatchObject({ ok: false, reason: 'outside_validity' });
    expect(await checkCheckpoint(subtle, PROOF.checkpoint, [{ ...KEY, valid_from: '2026-12-01T00:00:00.000Z' }])).toMatchObject({ ok: false, reason: 'outside_validity' });
    const other = (await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const otherRaw = new Uint8Array(await subtle.exportKey('raw', other.publicKey));
    const otherKey = { ...KEY, public_key: btoa(String.fromCharCode(...otherRaw)) };
    expect(await checkCheckpoint(subtle, PROOF.checkpoint, [otherKey])).toMatchObject({ ok: false, reason: 'bad_signature' });
    const signature = Uint8Array.from(atob(PROOF.checkpoint.signature), (c) => c.charCodeAt(0));
    signature[10] = signature[10]! ^ 1;
    const forged = { ...PROOF.checkpoint, signature: btoa(String.fromCharCode(...signature)) };
    expect(await checkCheckpoint(subtle, forged, [KEY])).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(await checkCheckpoint(subtle, { ...PROOF.checkpoint, signature: 'abc' }, [KEY])).toMatchObject({ ok: false, reason: 'malformed' });
    expect(await checkCheckpoint(subtle, PROOF.checkpoint, [{ ...KEY, algorithm: 'RSA' }])).toMatchObject({ ok: false, reason: 'unknown_key' });
  });

  // Reference tree straight from RFC 9162 §2.1 (recursive MTH and PATH), to check every position.
  const node = async (l: string, r: string) => toHex(new Uint8Array(await subtle.digest('SHA-256', Uint8Array.from([1, ...hexBytes(l), ...hexBytes(r)]))));
  const hexBytes = (hex: string) => Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
  const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
  const mth = async (leaves: string[]): Promise<string> => (leaves.length === 1 ? leaves[0]! : node(await mth(leaves.slice(0, split(leaves.length))), await mth(leaves.slice(split(leaves.length)))));
  const pathOf = async (m: number, leaves: string[]): Promise<string[]> => {
    if (leaves.length === 1) return [];
    const k = split(leaves.length);
    return m < k ? [...(await pathOf(m, leaves.slice(0, k))), await mth(leaves.slice(k))] : [...(await pathOf(m - k, leaves.slice(k))), await mth(leaves.slice(0, k))];
  };

  it('folds every index of every tree of 1 to 17 leaves to the reference root, and no other index', async () => {
    const all = await Promise.all(Array.from({ length: 17 }, (_, i) => leafHashHex(subtle, `leaf ${i}`)));
    for (let size = 1; size <= 17; size++) {
      const leaves = all.slice(0, size);
      const root = await mth(leaves);
      for (let m = 0; m < size; m++) {
        const path = await pathOf(m, leaves);
        expect(await rootFromInclusionPath(subtle, m, size, leaves[m]!, path)).toBe(root);
        if (size > 1) expect(await rootFromInclusionPath(subtle, (m + 1) % size, size, leaves[m]!, path)).not.toBe(root);
      }
      expect(await rootFromInclusionPath(subtle, size, size, leaves[0]!, [])).toBeNull();
    }
  });
});
