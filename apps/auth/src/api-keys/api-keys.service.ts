import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type {
  AccessPage,
  AccessPageRequest,
  ApiKeyResponse,
  CreateApiKeyRequest,
  CreatedApiKeyResponse,
  RotateApiKeyRequest,
  RotatedApiKeyResponse,
  VerifiedApiKey,
} from '@vigil/contracts';
import { apiKeyDisplayPrefix, generateApiKey, isWellFormedApiKey, newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { DomainException } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { RevocationsPublisher } from '../revocations/revocations.publisher';
import { type ApiKeyRow, ApiKeysRepository } from './api-keys.repository';

export enum ApiKeysErrorCode {
  NotFound = 'api_key_not_found',
  ExpiryInPast = 'api_key_expiry_in_past',
  Revoked = 'api_key_revoked',
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function toApiKeyResponse(row: ApiKeyRow): ApiKeyResponse {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** What an administrative record shows of a key: never its value or hash. */
function auditView(row: ApiKeyRow): Record<string, unknown> {
  return { name: row.name, prefix: row.prefix, scopes: row.scopes, expires_at: row.expires_at?.toISOString() ?? null };
}

@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ApiKeysRepository) private readonly keys: ApiKeysRepository,
    @Inject(RevocationsPublisher) private readonly revocations: RevocationsPublisher,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  /** The key value leaves the service here, once; only its hash is stored. */
  async create(request: CreateApiKeyRequest): Promise<CreatedApiKeyResponse> {
    if (request.expires_at && Date.parse(request.expires_at) <= Date.now()) {
      throw new DomainException(422, ApiKeysErrorCode.ExpiryInPast, 'expires_at must be in the future.', [
        { field: 'expires_at', message: 'must be in the future' },
      ]);
    }
    const key = generateApiKey();
    const row = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.keys.insert(
        {
          id: newId('apiKey'),
          name: request.name,
          prefix: apiKeyDisplayPrefix(key),
          key_hash: hashApiKey(key),
          scopes: [...new Set(request.scopes)],
          created_by: request.created_by,
          expires_at: request.expires_at ? new Date(request.expires_at).toISOString() : null,
        },
        manager,
      );
      // Never the key nor its hash: the record names the key by id and prefix.
      await this.audit.record(manager, { type: 'vigil.api_key.created', target: { type: 'api_key', id: inserted.id }, after: auditView(inserted) });
      return inserted;
    });
    return { ...toApiKeyResponse(row), key };
  }

  async list(page: AccessPageRequest): Promise<AccessPage<ApiKeyResponse>> {
    const { rows, total } = await this.keys.page(page.per_page, (page.page - 1) * page.per_page);
    return {
      data: rows.map(toApiKeyResponse),
      pagination: { total, page: page.page, per_page: page.per_page, has_more: page.page * page.per_page < total },
    };
  }

  /** Revokes and announces it in one transaction, so every gateway replica drops the key. */
  async revoke(id: string): Promise<ApiKeyResponse> {
    return this.dataSource.transaction(async (manager) => {
      const before = await this.keys.lock(manager, id);
      const row = before && (await this.keys.revoke(manager, id));
      if (!row) throw DomainException.notFound('API key', id, ApiKeysErrorCode.NotFound);
      await this.revocations.publish(manager, [{ kind: 'api_key', id: row.id, expires_at: row.expires_at?.toISOString() ?? null }]);
      await this.audit.record(manager, {
        type: 'vigil.api_key.revoked',
        target: { type: 'api_key', id: row.id },
        before: { ...auditView(before), revoked_at: before.revoked_at?.toISOString() ?? null },
        after: { ...auditView(row), revoked_at: row.revoked_at?.toISOString() ?? null },
      });
      return toApiKeyResponse(row);
    });
  }

  /**
   * Replaces a key by a new one with the same name, scopes, expiry and creator; the value is in
   * this answer only. The old key is revoked at once (overlap 0, announced to every gateway) or
   * keeps working for `overlap_seconds` (its expiry is brought forward, never pushed back).
   */
  async rotate(request: RotateApiKeyRequest): Promise<RotatedApiKeyResponse> {
    return this.dataSource.transaction(async (manager) => {
      const old = await this.keys.lockById(manager, request.id);
      if (!old) throw DomainException.notFound('API key', request.id, ApiKeysErrorCode.NotFound);
      if (old.revoked_at || (old.expires_at && old.expires_at.getTime() <= Date.now())) {
        throw new DomainException(409, ApiKeysErrorCode.Revoked, 'This API key is revoked or expired; create a new one instead.');
      }
      const key = generateApiKey();
      const created = await this.keys.insertWith(manager, {
        id: newId('apiKey'),
        name: old.name,
        prefix: apiKeyDisplayPrefix(key),
        key_hash: hashApiKey(key),
        scopes: old.scopes,
        created_by: old.created_by,
        expires_at: old.expires_at,
      });
      let previous: ApiKeyRow;
      if (request.overlap_seconds > 0) {
        const end = new Date(Date.now() + request.overlap_seconds * 1000);
        previous = await this.keys.expireBy(manager, old.id, end);
        // Gateways hold the key with its old expiry (cache, open streams): they stop it at the end.
        await this.revocations.publish(manager, [
          { kind: 'api_key', id: old.id, expires_at: previous.expires_at?.toISOString() ?? null, reason: 'rotated', effective_at: previous.expires_at?.toISOString() ?? end.toISOString() },
        ]);
      } else {
        previous = (await this.keys.revoke(manager, old.id)) ?? old;
        await this.revocations.publish(manager, [{ kind: 'api_key', id: old.id, expires_at: old.expires_at?.toISOString() ?? null, reason: 'rotated' }]);
      }
      await this.audit.record(manager, {
        type: 'vigil.api_key.rotated',
        target: { type: 'api_key', id: old.id },
        before: auditView(old),
        after: { replaced_by: created.id, previous_expires_at: previous.expires_at?.toISOString() ?? null, previous_revoked_at: previous.revoked_at?.toISOString() ?? null },
      });
      return { key: { ...toApiKeyResponse(created), key }, previous: toApiKeyResponse(previous) };
    });
  }

  /** The gateway's cache miss: null for an unknown, revoked or expired key. */
  async verify(key: string): Promise<VerifiedApiKey | null> {
    if (!isWellFormedApiKey(key)) return null;
    const row = await this.keys.findByHash(hashApiKey(key));
    if (!row || row.revoked_at || (row.expires_at && row.expires_at.getTime() <= Date.now())) return null;
    await this.keys.touch([row.id]);
    return { id: row.id, scopes: row.scopes, expires_at: row.expires_at?.toISOString() ?? null };
  }

  touch(ids: string[]): Promise<void> {
    return this.keys.touch(ids.slice(0, 1000));
  }
}
