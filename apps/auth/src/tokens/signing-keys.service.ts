import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ACCESS_TOKEN_ALGORITHM, type JsonWebKeySet, type SigningKeyRotationResponse } from '@vigil/contracts';
import { ulid } from '@vigil/domain';
import { CONFIG, LOGGER, type Logger, SecretBox, secretContext } from '@vigil/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthConfig } from '../auth.service-definition';
import { AuditTrail } from '@vigil/messaging';
import { SIGNING_KEY_PRIVATE } from '../database/sealed-columns';

export const JWT_ALGORITHM = ACCESS_TOKEN_ALGORITHM;

/** How often each auth replica re-reads the keys (a rotation by another replica reaches it then). */
const RELOAD_MS = 30_000;
/**
 * Added to a retired key's publication beyond the access-token lifetime: another replica may sign
 * with it until its next reload, and clocks differ a little.
 */
const RETIREMENT_MARGIN_SECONDS = 2 * RELOAD_MS / 1000 + 60;

interface KeyRow {
  kid: string;
  private_key: string;
  public_jwk: Record<string, unknown>;
  created_at: Date;
  retired_at: Date | null;
  published_until: Date | null;
}

/**
 * The ES256 key that signs access tokens. Created once (under an advisory lock, so replicas agree),
 * stored sealed, published as a JWKS so the gateway verifies tokens without calling back.
 *
 * Rotation (docs/access.md, "Signing keys"): a new key is made when the current one is
 * SIGNING_KEY_ROTATION_DAYS old (checked at start and hourly) or when an administrator asks. The
 * retired key no longer signs but stays in the JWKS until `published_until` (its retirement plus
 * the access-token lifetime and a margin), so every token it signed verifies until it expires.
 * The gateway fetches the JWKS again when a token names a kid it does not know.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit, OnApplicationShutdown {
  private active: { kid: string; privateKey: KeyObject } | undefined;
  private jwks: JsonWebKeySet = { keys: [] };
  private rows: KeyRow[] = [];
  private publicByKid = new Map<string, KeyObject>();
  private readonly box: SecretBox;
  private loadedAt = 0;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AuthConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {
    this.box = new SecretBox(config.VIGIL_ENCRYPTION_KEYS, logger);
  }

  async onModuleInit() {
    await this.dataSource.transaction(async (manager) => {
      await this.lock(manager);
      const [current] = await manager.query(`SELECT kid FROM auth.signing_keys WHERE retired_at IS NULL LIMIT 1`);
      if (!current) await this.insertKey(manager);
    });
    await this.rotateIfDue();
    await this.load();
    this.timers.push(setInterval(() => void this.load().catch((error) => this.logger.warn({ err: error }, 'could not reload the signing keys')), RELOAD_MS));
    this.timers.push(setInterval(() => void this.rotateIfDue().catch((error) => this.logger.warn({ err: error }, 'scheduled signing-key rotation failed')), 3600_000));
    for (const t of this.timers) t.unref();
  }

  onApplicationShutdown() {
    for (const t of this.timers) clearInterval(t);
  }

  private lock(manager: EntityManager) {
    return manager.query(`SELECT pg_advisory_xact_lock(hashtext('vigil:auth:signing-key'))`);
  }

  private async insertKey(manager: EntityManager): Promise<string> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const kid = ulid();
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: JWT_ALGORITHM, use: 'sig' };
    await manager.query(`INSERT INTO auth.signing_keys (kid, alg, private_key, public_jwk) VALUES ($1, $2, $3, $4)`, [
      kid,
      JWT_ALGORITHM,
      this.box.seal(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), secretContext(SIGNING_KEY_PRIVATE, kid)),
      JSON.stringify(jwk),
    ]);
    return kid;
  }

  /** Retires the current key and makes a new one, in one transaction under the key lock. */
  private async replace(manager: EntityManager, reason: 'scheduled' | 'requested'): Promise<string> {
    const keepSeconds = this.config.ACCESS_TOKEN_TTL_SECONDS + RETIREMENT_MARGIN_SECONDS;
    // An UPDATE ... RETURNING answers [rows, count] through TypeORM.
    const [retired]: [{ kid: string }[], number] = await manager.query(
      `UPDATE auth.signing_keys SET retired_at = now(), published_until = now() + make_interval(secs => $1) WHERE retired_at IS NULL RETURNING kid`,
      [keepSeconds],
    );
    const kid = await this.insertKey(manager);
    await this.audit.record(manager, {
      type: 'vigil.signing_key.rotated',
      target: { type: 'signing_key', id: kid },
      before: { kid: retired[0]?.kid ?? null },
      after: { kid },
      reason,
    });
    return kid;
  }

  /** The scheduled rotation: replaces the current key once it is SIGNING_KEY_ROTATION_DAYS old. */
  async rotateIfDue(): Promise<boolean> {
    const rotated = await this.dataSource.transaction(async (manager) => {
      await this.lock(manager);
      const [current] = await manager.query(
        `SELECT kid FROM auth.signing_keys WHERE retired_at IS NULL AND created_at <= now() - make_interval(days => $1)`,
        [this.config.SIGNING_KEY_ROTATION_DAYS],
      );
      if (!current) return null;
      return this.replace(manager, 'scheduled');
    });
    if (!rotated) return false;
    this.logger.info({ kid: rotated }, 'token signing key rotated on schedule');
    await this.load();
    return true;
  }

  /** On-demand rotation (an administrator): the new key signs from now on, on this replica at once. */
  async rotate(): Promise<SigningKeyRotationResponse> {
    const kid = await this.dataSource.transaction(async (manager) => {
      await this.lock(manager);
      return this.replace(manager, 'requested');
    });
    this.logger.info({ kid }, 'token signing key rotated on request');
    await this.load();
    return {
      kid,
      keys: this.rows.map((r) => ({
        kid: r.kid,
        created_at: r.created_at.toISOString(),
        retired_at: r.retired_at?.toISOString() ?? null,
        published_until: r.published_until?.toISOString() ?? null,
      })),
    };
  }

  private async load() {
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT kid, private_key, public_jwk, created_at, retired_at, published_until FROM auth.signing_keys
       WHERE retired_at IS NULL OR published_until > now() ORDER BY created_at DESC`,
    );
    const current = rows.find((r) => !r.retired_at)!;
    if (this.active?.kid !== current.kid) this.active = { kid: current.kid, privateKey: createPrivateKey(this.box.open(current.private_key, secretContext(SIGNING_KEY_PRIVATE, current.kid))) };
    this.rows = rows;
    this.jwks = { keys: rows.map((r) => r.public_jwk as JsonWebKeySet['keys'][number]) };
    this.publicByKid = new Map(rows.map((r) => [r.kid, createPublicKey({ key: r.public_jwk as never, format: 'jwk' })]));
    this.loadedAt = Date.now();
  }

  /** The public key of a kid this service signed with (to verify its own tokens on revocation). */
  publicKey(kid: string): KeyObject | undefined {
    return this.publicByKid.get(kid);
  }

  signingKey(): { kid: string; privateKey: KeyObject } {
    if (!this.active) throw new Error('signing key not loaded');
    return this.active;
  }

  publicKeys(): JsonWebKeySet {
    return this.jwks;
  }

  /**
   * The JWKS for the gateways. A gateway asks when it meets an unknown kid, which may come from a
   * key another auth replica made a moment ago: re-read unless the keys were read this second.
   */
  async currentPublicKeys(): Promise<JsonWebKeySet> {
    if (Date.now() - this.loadedAt > 1000) await this.load();
    return this.jwks;
  }
}
