import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ACCESS_TOKEN_ALGORITHM, type JsonWebKeySet } from '@vigil/contracts';
import { ulid } from '@vigil/domain';
import { CONFIG, SecretBox } from '@vigil/platform';
import { DataSource } from 'typeorm';
import type { AuthConfig } from '../auth.service-definition';

export const JWT_ALGORITHM = ACCESS_TOKEN_ALGORITHM;

interface KeyRow {
  kid: string;
  private_key: string;
  public_jwk: Record<string, unknown>;
}

/**
 * The ES256 key that signs access tokens. Created once (under an advisory lock, so replicas agree),
 * stored sealed, published as a JWKS so the gateway verifies tokens without calling back.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private active: { kid: string; privateKey: KeyObject } | undefined;
  private jwks: JsonWebKeySet = { keys: [] };
  private publicByKid = new Map<string, KeyObject>();
  private readonly box: SecretBox;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CONFIG) config: AuthConfig,
  ) {
    this.box = new SecretBox(config.VIGIL_ENCRYPTION_KEYS);
  }

  async onModuleInit() {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('vigil:auth:signing-key'))`);
      const [current] = await manager.query(`SELECT kid FROM auth.signing_keys WHERE retired_at IS NULL LIMIT 1`);
      if (current) return;
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const kid = ulid();
      const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: JWT_ALGORITHM, use: 'sig' };
      await manager.query(
        `INSERT INTO auth.signing_keys (kid, alg, private_key, public_jwk) VALUES ($1, $2, $3, $4)`,
        [kid, JWT_ALGORITHM, this.box.seal(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()), JSON.stringify(jwk)],
      );
    });
    await this.load();
  }

  private async load() {
    const rows: (KeyRow & { retired_at: Date | null })[] = await this.dataSource.query(
      `SELECT kid, private_key, public_jwk, retired_at FROM auth.signing_keys
       WHERE retired_at IS NULL OR retired_at > now() - interval '2 days' ORDER BY created_at DESC`,
    );
    const current = rows.find((r) => !r.retired_at)!;
    const pem = this.box.open(current.private_key);
    this.active = { kid: current.kid, privateKey: createPrivateKey(pem) };
    this.jwks = { keys: rows.map((r) => r.public_jwk as JsonWebKeySet['keys'][number]) };
    this.publicByKid = new Map(rows.map((r) => [r.kid, createPublicKey({ key: r.public_jwk as never, format: 'jwk' })]));
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
}
