import { createCipheriv, createDecipheriv, createHash, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';

/**
 * A database column that holds sealed secrets, and the primary key column of its table
 * (docs/operations.md#secrets-at-rest). A value sealed for one row and column opens there only.
 */
export interface SealedColumn {
  /** The schema-qualified table, e.g. `delivery.webhooks`. */
  table: string;
  /** The column holding the sealed value (null values are skipped). */
  column: string;
  /** The table's primary key column: its value binds the sealed value to its row. */
  id: string;
  /** A column that repeats the id of the key the value is sealed with, kept in step when it is re-sealed. */
  keyIdColumn?: string;
  /** What a row is, as the administrative audit trail names it (`webhook`, `signing_key`, ...). */
  resource: string;
}

/**
 * The associated data of a value sealed in `column` of the row `rowId`: `<schema>.<table>.<column>:<id>`
 * (e.g. `delivery.webhooks.secret_sealed:wh_01...`).
 */
export function secretContext(column: SealedColumn, rowId: string): string {
  return `${column.table}.${column.column}:${rowId}`;
}

/** Why a sealed value did not open. */
export type SecretOpenFailure = 'not_sealed' | 'unknown_key' | 'wrong_place_or_altered';

/** A sealed value that does not open here; it never carries the plaintext or the ciphertext. */
export class SecretOpenError extends Error {
  constructor(
    /** Where the value was read (its associated data). */
    readonly context: string,
    readonly reason: SecretOpenFailure,
    /** The key the value names, when it names one. */
    readonly keyId: string | null,
  ) {
    super(
      reason === 'not_sealed'
        ? `the value in ${context} is not a sealed secret`
        : reason === 'unknown_key'
          ? `the secret in ${context} is sealed with key ${keyId}, which is not in VIGIL_ENCRYPTION_KEYS`
          : `the secret in ${context} does not open: it was sealed for another row or column, or altered`,
    );
    this.name = 'SecretOpenError';
  }
}

/** The format and key of a sealed value, read from its header (nothing is decrypted). */
export interface SealedHeader {
  format: 'v1' | 'v2';
  keyId: string;
}

const V2_AAD_PREFIX = 'vigil.secret.v2';

/**
 * AES-256-GCM for secrets at rest (signing keys, webhook secrets, destination credentials).
 *
 * Format `v2.<key id>.<iv>.<tag>.<data>` (base64url parts): the associated data is
 * `vigil.secret.v2\n<key id>\n<context>`, the context naming the table, column and row the value
 * belongs to (secretContext). A value copied to another row or column, or its header edited, fails
 * the tag check and does not open. Values sealed before associated data existed (`v1`, the same
 * parts, no associated data) still open wherever they are; `reencrypt-secrets` rewrites them as v2.
 * Each value names its key, so keys can be rotated: new values use the first (current) key, older
 * ones open with the key they name.
 */
export class SecretBox {
  /**
   * Keys as KeyObjects, made once: on Node 24 a cipher made from a raw key Buffer costs about 40 µs
   * more than one made from a KeyObject (a KeyObject is built for it every time), which was most of
   * a seal or an open. The key bytes also stay outside the JavaScript heap.
   */
  private readonly keys = new Map<string, KeyObject>();
  readonly currentKeyId: string;
  /** The ids of the configured keys, current first. */
  readonly keyIds: string[];

  /** `keys`: base64 32-byte keys, the first one current. `logger`: where a value that does not open is reported. */
  constructor(
    keys: string[],
    private readonly logger?: Pick<Logger, 'error'>,
  ) {
    if (!keys.length) throw new Error('SecretBox needs at least one key');
    for (const encoded of keys) {
      const key = Buffer.from(encoded, 'base64');
      if (key.length !== 32) throw new Error('encryption keys must be 32 bytes, base64-encoded');
      this.keys.set(SecretBox.keyId(key), createSecretKey(key));
    }
    this.currentKeyId = SecretBox.keyId(Buffer.from(keys[0]!, 'base64'));
    this.keyIds = [...this.keys.keys()];
  }

  /** The first 12 hex digits of the key's SHA-256 (`printf %s <key> | base64 -d | sha256sum | cut -c1-12`). */
  static keyId(key: Buffer): string {
    return createHash('sha256').update(key).digest('hex').slice(0, 12);
  }

  static generateKey(): string {
    return randomBytes(32).toString('base64');
  }

  /** The format and key id a sealed value names, or null when it is not one. */
  static header(sealed: string): SealedHeader | null {
    const parts = sealed.split('.');
    if (parts.length !== 5 || (parts[0] !== 'v1' && parts[0] !== 'v2') || !/^[0-9a-f]{12}$/.test(parts[1]!)) return null;
    return { format: parts[0], keyId: parts[1]! };
  }

  /** True when `sealed` is in the current format under the current key: re-sealing it would change nothing. */
  isCurrent(sealed: string): boolean {
    const header = SecretBox.header(sealed);
    return header?.format === 'v2' && header.keyId === this.currentKeyId;
  }

  /** Seals `plaintext` for `context` (secretContext: the table, column and row it is stored in). */
  seal(plaintext: string, context: string): string {
    if (!context) throw new Error('a sealed secret needs its context (table, column and row)');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(associatedData(this.currentKeyId, context));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v2', this.currentKeyId, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join('.');
  }

  /**
   * Opens a value read from `context`. Fails closed with a SecretOpenError (logged, without the
   * value) when it is not sealed, names a key not configured, or was sealed for another place.
   */
  open(sealed: string, context: string): string {
    try {
      return this.openOrThrow(sealed, context);
    } catch (error) {
      if (error instanceof SecretOpenError) {
        this.logger?.error({ sealed_in: error.context, key_id: error.keyId, reason: error.reason }, error.message);
      }
      throw error;
    }
  }

  private openOrThrow(sealed: string, context: string): string {
    if (!context) throw new Error('a sealed secret needs its context (table, column and row)');
    const header = SecretBox.header(sealed);
    if (!header) throw new SecretOpenError(context, 'not_sealed', null);
    const key = this.keys.get(header.keyId);
    if (!key) throw new SecretOpenError(context, 'unknown_key', header.keyId);
    const [, , iv, tag, data] = sealed.split('.') as [string, string, string, string, string];
    const tagBytes = Buffer.from(tag, 'base64url');
    if (tagBytes.length !== 16) throw new SecretOpenError(context, 'wrong_place_or_altered', header.keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
      if (header.format === 'v2') decipher.setAAD(associatedData(header.keyId, context));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError(context, 'wrong_place_or_altered', header.keyId);
    }
  }
}

function associatedData(keyId: string, context: string): Buffer {
  return Buffer.from(`${V2_AAD_PREFIX}\n${keyId}\n${context}`, 'utf8');
}

/** Constant-time comparison of two strings (different lengths compare false, still in constant time). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
