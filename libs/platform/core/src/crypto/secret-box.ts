import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * AES-256-GCM for secrets at rest (signing keys, webhook secrets, destination credentials).
 * Each ciphertext names the key it was made with (`v1.<key id>.<iv>.<tag>.<data>`), so keys can
 * be rotated: new writes use the current key, old values still open with the key they name.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string;

  /** `keys`: base64 32-byte keys, the first one current. */
  constructor(keys: string[]) {
    if (!keys.length) throw new Error('SecretBox needs at least one key');
    for (const encoded of keys) {
      const key = Buffer.from(encoded, 'base64');
      if (key.length !== 32) throw new Error('encryption keys must be 32 bytes, base64-encoded');
      this.keys.set(SecretBox.keyId(key), key);
    }
    this.currentKeyId = SecretBox.keyId(Buffer.from(keys[0]!, 'base64'));
  }

  static keyId(key: Buffer): string {
    return createHash('sha256').update(key).digest('hex').slice(0, 12);
  }

  static generateKey(): string {
    return randomBytes(32).toString('base64');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v1', this.currentKeyId, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, keyId, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !keyId || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`sealed with unknown key ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** Constant-time comparison of two strings (different lengths compare false, still in constant time). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
