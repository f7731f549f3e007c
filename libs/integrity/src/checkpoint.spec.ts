import { generateKeyPairSync, verify } from 'node:crypto';
import {
  type SignedCheckpoint,
  checkCheckpoint,
  checkpointMessage,
  generateCheckpointKey,
  publicKeyFromBase64,
  publicKeyToBase64,
  signCheckpoint,
  verifyCheckpoint,
} from './checkpoint';

const fields = {
  tree_size: 1234,
  root_hash: 'ab'.repeat(32),
  timestamp: '2026-11-25T18:00:00.000Z',
  key_id: 'ckey_2026_11_25',
};

describe('checkpoints', () => {
  const key = generateCheckpointKey();
  const published = [{ key_id: fields.key_id, algorithm: 'Ed25519', public_key: key.public_key, valid_from: '2026-11-01T00:00:00.000Z', valid_until: null, status: 'active' }];

  it('signs the documented line-based message', () => {
    expect(checkpointMessage(fields).toString('utf8')).toBe(`vigil.checkpoint/v1\n1234\n${'ab'.repeat(32)}\n2026-11-25T18:00:00.000Z\nckey_2026_11_25\n`);
    const cp = signCheckpoint(fields, key.privateKey);
    expect(Buffer.from(cp.signature, 'base64')).toHaveLength(64);
    // Any Ed25519 implementation checks it with the raw public key and the message.
    expect(verify(null, checkpointMessage(fields), publicKeyFromBase64(key.public_key), Buffer.from(cp.signature, 'base64'))).toBe(true);
    expect(checkCheckpoint(cp, published)).toEqual({ ok: true, key: published[0] });
  });

  it('refuses a checkpoint forged with another key under the same key id', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = signCheckpoint(fields, other);
    expect(verifyCheckpoint(forged, published)).toBe(false);
    expect(checkCheckpoint(forged, published)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it.each<[string, Partial<SignedCheckpoint>]>([
    ['tree size', { tree_size: 1235 }],
    ['root hash', { root_hash: 'ac' + 'ab'.repeat(31) }],
    ['timestamp', { timestamp: '2026-11-25T18:00:01.000Z' }],
  ])('refuses a changed %s', (_name, change) => {
    const cp = { ...signCheckpoint(fields, key.privateKey), ...change };
    expect(checkCheckpoint(cp, published)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses an unknown key, a key outside its validity, and malformed fields', () => {
    const cp = signCheckpoint(fields, key.privateKey);
    expect(checkCheckpoint({ ...cp, key_id: 'other' }, published)).toMatchObject({ ok: false, reason: 'unknown_key' });
    expect(checkCheckpoint(cp, [{ ...published[0], valid_until: '2026-11-20T00:00:00.000Z' }])).toMatchObject({ ok: false, reason: 'outside_validity' });
    expect(checkCheckpoint(cp, [{ ...published[0], valid_from: '2026-11-26T00:00:00.000Z' }])).toMatchObject({ ok: false, reason: 'outside_validity' });
    expect(checkCheckpoint({ ...cp, signature: cp.signature.slice(4) }, published)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(checkCheckpoint({ ...cp, root_hash: 'AB'.repeat(32) }, published)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(checkCheckpoint(cp, [{ ...published[0], public_key: 'AAAA' }])).toMatchObject({ ok: false, reason: 'unknown_key' });
    expect(() => checkpointMessage({ ...fields, key_id: 'a\nb' })).toThrow(TypeError);
    expect(() => checkpointMessage({ ...fields, tree_size: -1 })).toThrow(TypeError);
  });

  it('encodes public keys as base64 of the raw 32 bytes', () => {
    const raw = Buffer.from(key.public_key, 'base64');
    expect(raw).toHaveLength(32);
    expect(publicKeyToBase64(publicKeyFromBase64(key.public_key))).toBe(key.public_key);
    expect(publicKeyToBase64(key.privateKey)).toBe(key.public_key);
    expect(key.publicKey.export({ format: 'jwk' }).x).toBe(raw.toString('base64url'));
  });
});
