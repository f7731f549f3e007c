import { createPrivateKey, type KeyObject } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { POLICY_SNAPSHOT_SIGNATURE_PURPOSE, type PolicySigningKey, type PolicySnapshot } from '@vigil/contracts';
import { CONFIG, type DocumentSignature, LOGGER, type Logger, newSigningKey, SecretBox, secretContext, signDocument } from '@vigil/platform';
import { ulid } from '@vigil/domain';
import { DataSource } from 'typeorm';
import { SNAPSHOT_SIGNING_KEY_PRIVATE } from '../database/sealed-columns';
import type { PolicyConfig } from '../policy.service-definition';

interface KeyRow {
  key_id: string;
  public_key: string;
  private_key: string;
  created_at: Date;
  retired_at: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * Signs every policy snapshot the policy service publishes, so an enforcement point applies a
 * state only if this service made it: anyone able to write to the policy topic could otherwise
 * switch a policy off everywhere (docs/policies.md#signed-snapshots). One active Ed25519 key,
 * generated on first start, sealed at rest with VIGIL_ENCRYPTION_KEYS and replaced once it is
 * POLICY_SIGNING_KEY_ROTATION_DAYS old (at start, and checked at each signing); retired keys keep
 * verifying what they signed. Replicas serialise key creation on an advisory lock.
 */
@Injectable()
export class SnapshotSigner implements OnModuleInit {
  private active: { keyId: string; privateKey: KeyObject; createdAt: Date } | undefined;
  private readonly box: SecretBox;
  private rotating: Promise<void> | undefined;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: PolicyConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.box = new SecretBox(config.VIGIL_ENCRYPTION_KEYS, logger);
  }

  async onModuleInit() {
    await this.ensureCurrentKey();
  }

  /** The signature a snapshot carries on policy.events.v1. */
  async sign(policy: PolicySnapshot): Promise<DocumentSignature> {
    if (!this.active || Date.now() - this.active.createdAt.getTime() >= this.config.POLICY_SIGNING_KEY_ROTATION_DAYS * DAY_MS) {
      this.rotating ??= this.ensureCurrentKey().finally(() => (this.rotating = undefined));
      await this.rotating;
    }
    return signDocument(POLICY_SNAPSHOT_SIGNATURE_PURPOSE, policy, this.active!.keyId, this.active!.privateKey);
  }

  /** Every key whose snapshots are still accepted, newest first. */
  async keys(): Promise<PolicySigningKey[]> {
    const rows: KeyRow[] = await this.dataSource.query(`SELECT key_id, public_key, created_at, retired_at FROM policy.snapshot_signing_keys ORDER BY created_at DESC`);
    return rows.map((r) => ({ key_id: r.key_id, public_key: r.public_key, created_at: r.created_at.toISOString(), retired_at: r.retired_at?.toISOString() ?? null }));
  }

  /** Replaces the active key now (operators; tests). */
  async rotate(): Promise<string> {
    await this.ensureCurrentKey(true);
    return this.active!.keyId;
  }

  private async ensureCurrentKey(force = false): Promise<void> {
    const maxAge = `${this.config.POLICY_SIGNING_KEY_ROTATION_DAYS} days`;
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('vigil:policy:snapshot-signing-key'))`);
      const [current]: KeyRow[] = await manager.query(`SELECT key_id, created_at FROM policy.snapshot_signing_keys WHERE retired_at IS NULL`);
      const expired = current && (force || (await manager.query(`SELECT $1::timestamptz <= now() - $2::interval AS old`, [current.created_at, maxAge]))[0].old);
      if (current && !expired) return;
      if (current) await manager.query(`UPDATE policy.snapshot_signing_keys SET retired_at = now() WHERE key_id = $1`, [current.key_id]);
      const { privatePem, publicKey } = newSigningKey();
      const keyId = `psk_${ulid()}`;
      await manager.query(`INSERT INTO policy.snapshot_signing_keys (key_id, public_key, private_key) VALUES ($1, $2, $3)`, [
        keyId,
        publicKey,
        this.box.seal(privatePem, secretContext(SNAPSHOT_SIGNING_KEY_PRIVATE, keyId)),
      ]);
      this.logger.info({ key_id: keyId, replaced: current?.key_id ?? null }, 'new policy snapshot signing key');
    });
    const [row]: KeyRow[] = await this.dataSource.query(`SELECT key_id, private_key, created_at FROM policy.snapshot_signing_keys WHERE retired_at IS NULL`);
    this.active = { keyId: row!.key_id, privateKey: createPrivateKey(this.box.open(row!.private_key, secretContext(SNAPSHOT_SIGNING_KEY_PRIVATE, row!.key_id))), createdAt: row!.created_at };
  }
}
