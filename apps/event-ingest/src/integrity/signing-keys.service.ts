import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { IntegrityKey } from '@vigil/contracts';
import { CONFIG, LOGGER, type Logger, SecretBox, secretContext } from '@vigil/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { INTEGRITY_KEY_PRIVATE } from '../database/sealed-columns';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { AuditTrail } from '@vigil/messaging';

/** Rotation takes it exclusively, signing shared: no checkpoint is signed by a key being retired. */
export const KEYS_LOCK = `hashtext('vigil:integrity-keys')`;
const DAY_MS = 86_400_000;

interface KeyRow {
  key_id: string;
  public_key: string;
  private_key: string;
  valid_from: Date;
  valid_until: Date | null;
}

/** Raw 32-byte Ed25519 public key of a key object (the last 32 bytes of its SPKI encoding). */
export function rawPublicKey(key: KeyObject): Buffer {
  return (key.export({ format: 'der', type: 'spki' }) as Buffer).subarray(-32);
}

/** A key's id: the first 16 hex digits of SHA-256 of its raw public key. */
export function keyIdOf(rawPublic: Buffer): string {
  return createHash('sha256').update(rawPublic).digest('hex').slice(0, 16);
}

/** An Ed25519 public key object from its raw 32 bytes. */
export function publicKeyFromRaw(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]), format: 'der', type: 'spki' });
}

function toKey(row: KeyRow): IntegrityKey {
  return {
    key_id: row.key_id,
    algorithm: 'Ed25519',
    public_key: row.public_key,
    valid_from: row.valid_from.toISOString(),
    valid_until: row.valid_until ? row.valid_until.toISOString() : null,
    status: row.valid_until ? 'retired' : 'active',
  };
}

/**
 * The Ed25519 keys that sign checkpoints (docs/integrity.md#checkpoints-and-keys). The first start
 * generates one (under an advisory lock, so replicas agree); private keys are stored sealed with
 * VIGIL_ENCRYPTION_KEYS and never leave this service. A new key replaces the active one every
 * INTEGRITY_KEY_ROTATION_DAYS and on demand; retired keys stay published with their validity.
 */
@Injectable()
export class SigningKeys implements OnModuleInit {
  private readonly box: SecretBox;
  private readonly logger: Logger;
  private cached: { keyId: string; privateKey: KeyObject } | undefined;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: Pick<EventIngestConfig, 'VIGIL_ENCRYPTION_KEYS' | 'INTEGRITY_KEY_ROTATION_DAYS'>,
    @Inject(LOGGER) logger: Logger,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {
    this.logger = logger.child({ component: 'integrity-keys' });
    this.box = new SecretBox(config.VIGIL_ENCRYPTION_KEYS, this.logger);
  }

  async onModuleInit() {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(${KEYS_LOCK})`);
      const [active] = await manager.query(`SELECT key_id FROM event_ingest.integrity_keys WHERE valid_until IS NULL`);
      if (!active) await this.create(manager, 'initial');
    });
    // Fail closed: a key this installation cannot open (VIGIL_ENCRYPTION_KEYS changed) stops the start.
    await this.signingKey();
  }

  private async create(manager: EntityManager, reason: string): Promise<KeyRow> {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = rawPublicKey(publicKey);
    const keyId = keyIdOf(raw);
    const sealed = this.box.seal(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), secretContext(INTEGRITY_KEY_PRIVATE, keyId));
    const [row]: KeyRow[] = await manager.query(
      `INSERT INTO event_ingest.integrity_keys (key_id, public_key, private_key, valid_from, reason)
       VALUES ($1, $2, $3, clock_timestamp(), $4) RETURNING key_id, public_key, private_key, valid_from, valid_until`,
      [keyId, raw.toString('base64'), sealed, reason],
    );
    this.logger.info({ key_id: row!.key_id, reason }, 'checkpoint signing key created');
    return row!;
  }

  /** Retires the active key and makes a new one; returns the new key. */
  async rotate(reason: 'on_demand' | 'scheduled'): Promise<IntegrityKey> {
    const row = await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(${KEYS_LOCK})`);
      // An UPDATE ... RETURNING answers [rows, count] through TypeORM.
      const [retired]: [{ key_id: string }[], number] = await manager.query(
        `UPDATE event_ingest.integrity_keys SET valid_until = clock_timestamp() WHERE valid_until IS NULL RETURNING key_id`,
      );
      const created = await this.create(manager, reason);
      await this.audit.record(manager, {
        type: 'vigil.integrity_key.rotated',
        target: { type: 'integrity_key', id: created.key_id },
        before: { key_id: retired[0]?.key_id ?? null },
        after: { key_id: created.key_id },
        reason,
      });
      return created;
    });
    return toKey(row);
  }

  /** Rotates when the active key is older than INTEGRITY_KEY_ROTATION_DAYS. */
  async rotateIfDue(now = new Date()): Promise<boolean> {
    const days = this.config.INTEGRITY_KEY_ROTATION_DAYS;
    if (days <= 0) return false;
    const [active]: { valid_from: Date }[] = await this.dataSource.query(`SELECT valid_from FROM event_ingest.integrity_keys WHERE valid_until IS NULL`);
    if (active && now.getTime() - active.valid_from.getTime() < days * DAY_MS) return false;
    await this.rotate('scheduled');
    return true;
  }

  /** The active key, opened (read each time it changes, so a rotation by any replica takes effect). */
  async signingKey(manager: EntityManager = this.dataSource.manager): Promise<{ keyId: string; privateKey: KeyObject }> {
    const [row]: KeyRow[] = await manager.query(`SELECT key_id, private_key FROM event_ingest.integrity_keys WHERE valid_until IS NULL`);
    if (!row) throw new Error('no active checkpoint signing key');
    if (this.cached?.keyId !== row.key_id) this.cached = { keyId: row.key_id, privateKey: createPrivateKey(this.box.open(row.private_key, secretContext(INTEGRITY_KEY_PRIVATE, row.key_id))) };
    return this.cached;
  }

  async list(): Promise<IntegrityKey[]> {
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT key_id, public_key, valid_from, valid_until FROM event_ingest.integrity_keys ORDER BY valid_from, key_id`,
    );
    return rows.map(toKey);
  }

  /** Public keys by id, for verification. */
  async publicKeys(): Promise<Map<string, { key: KeyObject; raw: string; valid_from: Date; valid_until: Date | null }>> {
    const rows: KeyRow[] = await this.dataSource.query(`SELECT key_id, public_key, valid_from, valid_until FROM event_ingest.integrity_keys`);
    return new Map(rows.map((r) => [r.key_id, { key: publicKeyFromRaw(Buffer.from(r.public_key, 'base64')), raw: r.public_key, valid_from: r.valid_from, valid_until: r.valid_until }]));
  }
}
