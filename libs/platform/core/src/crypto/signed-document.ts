import { createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';

/**
 * Ed25519 signatures over a JSON document, for documents that cross a channel a neighbour could
 * write to (policy snapshots on Kafka). The signed bytes are `<purpose>\n` followed by the
 * document's canonical JSON (object keys sorted by UTF-16 code units, no whitespace): a signature
 * made for one purpose never verifies for another, and the same document always gives the same
 * bytes whichever process serialised it.
 */
export interface DocumentSignature {
  key_id: string;
  /** base64 of the 64-byte Ed25519 signature. */
  value: string;
}

export function canonicalDocument(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('a signed document holds only finite numbers');
    if (value === undefined) throw new Error('a signed document holds no undefined values');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalDocument(v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalDocument(v)}`).join(',')}}`;
}

function signedBytes(purpose: string, document: unknown): Buffer {
  return Buffer.from(`${purpose}\n${canonicalDocument(document)}`, 'utf8');
}

export function signDocument(purpose: string, document: unknown, keyId: string, privateKey: KeyObject): DocumentSignature {
  return { key_id: keyId, value: sign(null, signedBytes(purpose, document), privateKey).toString('base64') };
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'unsigned' | 'unknown_key' | 'bad_signature' };

export function verifyDocument(purpose: string, document: unknown, signature: DocumentSignature | undefined, publicKeys: ReadonlyMap<string, KeyObject>): SignatureCheck {
  if (!signature) return { ok: false, reason: 'unsigned' };
  const key = publicKeys.get(signature.key_id);
  if (!key) return { ok: false, reason: 'unknown_key' };
  const raw = Buffer.from(signature.value, 'base64');
  if (raw.length !== 64) return { ok: false, reason: 'bad_signature' };
  try {
    return verify(null, signedBytes(purpose, document), key, raw) ? { ok: true } : { ok: false, reason: 'bad_signature' };
  } catch {
    return { ok: false, reason: 'bad_signature' };
  }
}

/** A new Ed25519 key pair: the private key as PKCS#8 PEM (to seal at rest), the public key as base64 of its 32 raw bytes. */
export function newSigningKey(): { privatePem: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x!;
  return { privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey: Buffer.from(raw, 'base64url').toString('base64') };
}

/** The public key from base64 of its 32 raw bytes. */
export function ed25519PublicKey(base64: string): KeyObject {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}
