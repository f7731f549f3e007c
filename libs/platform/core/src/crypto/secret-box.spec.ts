import { createCipheriv, randomBytes } from 'node:crypto';
import { safeEqual, SecretBox, secretContext, SecretOpenError, type SealedColumn } from './secret-box';

const WEBHOOK_SECRET: SealedColumn = { table: 'delivery.webhooks', column: 'secret_sealed', id: 'id', resource: 'webhook' };
const HERE = secretContext(WEBHOOK_SECRET, 'wh_1');

/** A value as sealed before associated data existed (format v1: no AAD). */
function sealV1(keyBase64: string, plaintext: string): string {
  const key = Buffer.from(keyBase64, 'base64');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', SecretBox.keyId(key), iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

function failure(run: () => unknown): SecretOpenError {
  try {
    run();
  } catch (error) {
    if (error instanceof SecretOpenError) return error;
    throw error;
  }
  throw new Error('expected the value not to open');
}

describe('SecretBox', () => {
  const oldKey = SecretBox.generateKey();
  const newKey = SecretBox.generateKey();

  it('opens what it sealed, and never writes the plaintext', () => {
    const box = new SecretBox([oldKey]);
    const sealed = box.seal('webhook-secret', HERE);
    expect(sealed).not.toContain('webhook-secret');
    expect(sealed.startsWith(`v2.${box.currentKeyId}.`)).toBe(true);
    expect(box.open(sealed, HERE)).toBe('webhook-secret');
    expect(box.seal('webhook-secret', HERE)).not.toBe(sealed);
  });

  it('names the context as table, column and row', () => {
    expect(HERE).toBe('delivery.webhooks.secret_sealed:wh_1');
  });

  it('refuses a value sealed for another row or another column, naming where it was read and never the plaintext', () => {
    const logged: unknown[][] = [];
    const box = new SecretBox([oldKey], { error: (...args: unknown[]) => void logged.push(args) } as never);
    const sealed = box.seal('the-plaintext', HERE);
    const otherRow = failure(() => box.open(sealed, secretContext(WEBHOOK_SECRET, 'wh_2')));
    expect(otherRow.reason).toBe('wrong_place_or_altered');
    expect(otherRow.message).toBe('the secret in delivery.webhooks.secret_sealed:wh_2 does not open: it was sealed for another row or column, or altered');
    const otherColumn = failure(() => box.open(sealed, 'delivery.alert_destinations.secrets_sealed:wh_1'));
    expect(otherColumn.reason).toBe('wrong_place_or_altered');
    expect(logged).toHaveLength(2);
    expect(logged[0]![0]).toEqual({ sealed_in: 'delivery.webhooks.secret_sealed:wh_2', key_id: box.currentKeyId, reason: 'wrong_place_or_altered' });
    expect(JSON.stringify(logged)).not.toContain('the-plaintext');
    expect(JSON.stringify(logged)).not.toContain(sealed.split('.')[4]);
  });

  it('refuses a v2 value relabelled as v1 (the tag covers the associated data)', () => {
    const box = new SecretBox([oldKey]);
    const sealed = box.seal('s', HERE);
    expect(failure(() => box.open(`v1${sealed.slice(2)}`, HERE)).reason).toBe('wrong_place_or_altered');
  });

  it('keeps opening v1 values (sealed without associated data) wherever they are read', () => {
    const box = new SecretBox([newKey, oldKey]);
    const legacy = sealV1(oldKey, 'legacy');
    expect(SecretBox.header(legacy)).toEqual({ format: 'v1', keyId: SecretBox.keyId(Buffer.from(oldKey, 'base64')) });
    expect(box.open(legacy, HERE)).toBe('legacy');
    expect(box.isCurrent(legacy)).toBe(false);
  });

  it('keeps opening values sealed with an older key after rotation; only v2 under the first key is current', () => {
    const before = new SecretBox([oldKey]);
    const sealedBefore = before.seal('s1', HERE);
    const rotated = new SecretBox([newKey, oldKey]);
    expect(rotated.open(sealedBefore, HERE)).toBe('s1');
    expect(rotated.isCurrent(sealedBefore)).toBe(false);
    const sealedAfter = rotated.seal('s2', HERE);
    expect(SecretBox.header(sealedAfter)).toEqual({ format: 'v2', keyId: rotated.currentKeyId });
    expect(rotated.isCurrent(sealedAfter)).toBe(true);
    expect(rotated.keyIds).toEqual([rotated.currentKeyId, before.currentKeyId]);
  });

  it('refuses tampered ciphertext, edited key ids, unknown keys and values that are not sealed', () => {
    const box = new SecretBox([oldKey]);
    const parts = box.seal('secret', HERE).split('.');
    expect(failure(() => box.open([...parts.slice(0, 4), Buffer.from('tampered').toString('base64url')].join('.'), HERE)).reason).toBe('wrong_place_or_altered');
    expect(failure(() => box.open([...parts.slice(0, 3), 'AAAA', parts[4]].join('.'), HERE)).reason).toBe('wrong_place_or_altered');
    const unknown = failure(() => new SecretBox([newKey]).open(box.seal('x', HERE), HERE));
    expect(unknown.reason).toBe('unknown_key');
    expect(unknown.message).toContain(`sealed with key ${box.currentKeyId}`);
    expect(failure(() => box.open('plain text', HERE)).reason).toBe('not_sealed');
    expect(failure(() => box.open('v3.abcdefabcdef.a.b.c', HERE)).reason).toBe('not_sealed');
  });

  it('needs a context to seal or open', () => {
    const box = new SecretBox([oldKey]);
    expect(() => box.seal('x', '')).toThrow(/context/);
    expect(() => box.open(box.seal('x', HERE), '')).toThrow(/context/);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox([Buffer.alloc(16).toString('base64')])).toThrow(/32 bytes/);
  });
});

describe('safeEqual', () => {
  it('compares by content', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
