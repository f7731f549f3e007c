import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type AuthorizeBeginRequest,
  type AuthorizeCompleteOutcome,
  type AuthorizeCompleteRequest,
  type AuthorizeOutcome,
  type CreatedOAuthClientResponse,
  type CreateOAuthClientRequest,
  type OAuthClientCredentials,
  type OAuthClientResponse,
  type OAuthError,
  type OAuthGrantType,
  type AccessPage,
  type AccessPageRequest,
  type RevokeOutcome,
  type RevokeRequest,
  type RotatedOAuthClientSecretResponse,
  type RotateOAuthClientSecretRequest,
  Scopes,
  type TokenOutcome,
  type TokenRequest,
} from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { CONFIG, DomainException } from '@vigil/platform';
import { verify } from 'jsonwebtoken';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthConfig } from '../auth.service-definition';
import { RevocationsPublisher } from '../revocations/revocations.publisher';
import { RefreshTokensRepository } from '../tokens/refresh-tokens.repository';
import { SigningKeysService, JWT_ALGORITHM } from '../tokens/signing-keys.service';
import { hashToken, REFRESH_TOKEN_PREFIX, TokensService } from '../tokens/tokens.service';
import { verifyPassword } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { type OAuthClientRow, OAuthRepository } from './oauth.repository';
import { isS256Challenge, redirectUriProblem, sameHash, sha256Hex, verifyPkce } from './pkce';

export enum OAuthClientsErrorCode {
  InvalidRedirectUri = 'invalid_redirect_uri',
  NotFound = 'oauth_client_not_found',
}

const REQUEST_TTL_SECONDS = 600;
/** RFC 6749 4.1.2: a maximum of 10 minutes is recommended; a minute is plenty for a redirect. */
const CODE_TTL_SECONDS = 60;
const CODE_PREFIX = 'vigil_ac_';
const CLIENT_SECRET_PREFIX = 'vigil_cs_';

const err = (oauth_error: string, error_description: string, status = 400): OAuthError => ({ oauth_error, error_description, status });

function toClientResponse(row: OAuthClientRow): OAuthClientResponse {
  return {
    client_id: row.client_id,
    name: row.name,
    redirect_uris: row.redirect_uris,
    grant_types: row.grant_types as OAuthGrantType[],
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    secret_rotated_at: row.secret_rotated_at?.toISOString() ?? null,
    previous_secret_expires_at: row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > Date.now() ? row.previous_secret_expires_at.toISOString() : null,
  };
}

function parseScope(scope: string | undefined): string[] | null {
  if (scope === undefined || scope.trim() === '') return null;
  return [...new Set(scope.split(' ').filter(Boolean))];
}

/** Scopes a holder of `held` may pass on: `admin` stands for every scope. */
function within(requested: string[], held: string[]): string[] {
  return held.includes('admin') ? requested : requested.filter((s) => held.includes(s));
}

function redirectTo(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * The OAuth 2.0 authorization server (RFC 6749, PKCE RFC 7636, revocation RFC 7009, following the
 * security BCP RFC 9700): confidential clients only, authorization codes bound to client, redirect
 * URI and an S256 challenge, single use; granted scopes never wider than the client's and the user's.
 */
@Injectable()
export class OAuthService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OAuthRepository) private readonly repo: OAuthRepository,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(TokensService) private readonly tokens: TokensService,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
    @Inject(RevocationsPublisher) private readonly revocations: RevocationsPublisher,
    @Inject(RefreshTokensRepository) private readonly refreshTokens: RefreshTokensRepository,
    @Inject(CONFIG) private readonly config: AuthConfig,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  // ---- clients --------------------------------------------------------------------------

  async registerClient(request: CreateOAuthClientRequest): Promise<CreatedOAuthClientResponse> {
    const problems = request.redirect_uris
      .map((uri, i) => ({ field: `redirect_uris[${i}]`, message: redirectUriProblem(uri) }))
      .filter((p): p is { field: string; message: string } => p.message !== null);
    if (request.grant_types.includes('authorization_code') && !request.redirect_uris.length) {
      problems.push({ field: 'redirect_uris', message: 'must name at least one URI for the authorization_code grant' });
    }
    if (problems.length) throw new DomainException(422, OAuthClientsErrorCode.InvalidRedirectUri, 'Some redirect URIs cannot be registered.', problems);
    const secret = `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.repo.insertClient(
        {
          client_id: newId('client'),
          name: request.name,
          secret_hash: sha256Hex(secret),
          redirect_uris: [...new Set(request.redirect_uris)],
          grant_types: [...new Set(request.grant_types)],
          scopes: [...new Set(request.scopes)],
          created_by: request.created_by,
        },
        manager,
      );
      // Never the secret nor its hash.
      await this.audit.record(manager, {
        type: 'vigil.oauth_client.created',
        target: { type: 'oauth_client', id: inserted.client_id },
        after: { name: inserted.name, redirect_uris: inserted.redirect_uris, grant_types: inserted.grant_types, scopes: inserted.scopes },
      });
      return inserted;
    });
    return { ...toClientResponse(row), client_secret: secret };
  }

  async listClients(page: AccessPageRequest): Promise<AccessPage<OAuthClientResponse>> {
    const { rows, total } = await this.repo.pageClients(page.per_page, (page.page - 1) * page.per_page);
    return {
      data: rows.map(toClientResponse),
      pagination: { total, page: page.page, per_page: page.per_page, has_more: page.page * page.per_page < total },
    };
  }

  /**
   * A new client secret, returned once. The previous one is still accepted for `overlap_seconds`
   * (default OAUTH_SECRET_OVERLAP_SECONDS), so the client can be redeployed with the new one.
   */
  async rotateClientSecret(request: RotateOAuthClientSecretRequest): Promise<RotatedOAuthClientSecretResponse> {
    const overlap = request.overlap_seconds ?? this.config.OAUTH_SECRET_OVERLAP_SECONDS;
    const secret = `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.dataSource.transaction(async (manager) => {
      const rotated = await this.repo.rotateSecret(request.client_id, sha256Hex(secret), overlap, manager);
      if (!rotated) throw DomainException.notFound('OAuth client', request.client_id, OAuthClientsErrorCode.NotFound);
      await this.audit.record(manager, {
        type: 'vigil.oauth_client.secret_rotated',
        target: { type: 'oauth_client', id: rotated.client_id },
        after: { previous_secret_expires_at: rotated.previous_secret_expires_at?.toISOString() ?? null },
      });
      return rotated;
    });
    return { client_id: row.client_id, client_secret: secret, previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null };
  }

  /**
   * Deletes a client: its refresh tokens are revoked and every token issued to it (its own
   * client_credentials tokens and users' tokens it obtained) is refused by the gateways at once.
   */
  async deleteClient(clientId: string): Promise<OAuthClientResponse> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.repo.lockClient(manager, clientId);
      if (!row) throw DomainException.notFound('OAuth client', clientId, OAuthClientsErrorCode.NotFound);
      const end = this.tokens.accessTokensEnd();
      const families = await this.refreshTokens.revokeClientSessions(manager, clientId);
      await this.revocations.publish(manager, [
        { kind: 'client', id: clientId, expires_at: end, reason: 'client_deleted' },
        ...families.map((f) => ({ kind: 'session' as const, id: f.family_id, expires_at: end, reason: 'client_deleted' as const })),
      ]);
      await this.repo.deleteClient(manager, clientId);
      await this.audit.record(manager, { type: 'vigil.oauth_client.deleted', target: { type: 'oauth_client', id: clientId }, before: { name: row.name, scopes: row.scopes, grant_types: row.grant_types } });
      return toClientResponse(row);
    });
  }

  // ---- authorization endpoint -------------------------------------------------------------

  async authorize(request: AuthorizeBeginRequest): Promise<AuthorizeOutcome> {
    const p = request.params;
    const client = p.client_id ? await this.repo.findClient(p.client_id) : null;
    if (!client) return { kind: 'fatal', error: 'invalid_client', error_description: 'Unknown client_id.' };
    // Exact string match against a registered URI; anything else is never redirected to.
    if (!p.redirect_uri || !client.redirect_uris.includes(p.redirect_uri)) {
      return { kind: 'fatal', error: 'invalid_request', error_description: 'redirect_uri is missing or not registered for this client.' };
    }
    const fail = (error: string, description: string): AuthorizeOutcome => ({
      kind: 'redirect',
      location: redirectTo(p.redirect_uri!, { error, error_description: description, state: p.state }),
    });
    if (p.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
    if (!client.grant_types.includes('authorization_code')) return fail('unauthorized_client', 'This client may not use the authorization_code grant.');
    if (!isS256Challenge(p.code_challenge) || p.code_challenge_method !== 'S256') {
      return fail('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256.');
    }
    const requested = parseScope(p.scope) ?? client.scopes;
    const unknown = requested.filter((s) => !(Scopes as readonly string[]).includes(s) || !within([s], client.scopes).length);
    if (unknown.length) return fail('invalid_scope', `Scope not allowed for this client: ${unknown.join(' ')}.`);

    if (request.user) {
      const user = await this.users.findById(request.user.id);
      if (!user) return fail('access_denied', 'The user no longer exists.');
      // The token's scopes and the user's current ones both bound the grant.
      const granted = within(within(requested, request.user.scopes), user.scopes);
      if (!granted.length) return fail('invalid_scope', 'The user holds none of the requested scopes.');
      const code = await this.dataSource.transaction(async (manager) => {
        const issued = await this.issueCode(manager, client.client_id, user.id, p.redirect_uri!, granted, p.code_challenge!);
        await this.auditAuthorized(manager, client.client_id, user.id, granted);
        return issued;
      });
      return { kind: 'redirect', location: redirectTo(p.redirect_uri, { code, state: p.state }) };
    }

    const csrf = randomBytes(32).toString('base64url');
    const id = `areq_${randomBytes(16).toString('base64url')}`;
    await this.repo.insertRequest({
      id,
      client_id: client.client_id,
      redirect_uri: p.redirect_uri,
      scopes: requested,
      state: p.state ?? null,
      code_challenge: p.code_challenge,
      csrf_hash: sha256Hex(csrf),
      ttl_seconds: REQUEST_TTL_SECONDS,
    });
    return { kind: 'consent', request_id: id, csrf_token: csrf, client_name: client.name, scopes: requested, redirect_host: new URL(p.redirect_uri).host };
  }

  /** The login-and-consent form was submitted. */
  async completeAuthorization(request: AuthorizeCompleteRequest): Promise<AuthorizeCompleteOutcome> {
    const pending = await this.dataSource.transaction(async (manager) => {
      const row = await this.repo.lockRequest(manager, String(request.request_id ?? ''));
      if (!row || row.completed_at || row.expires_at.getTime() <= Date.now()) return null;
      if (!sameHash(sha256Hex(String(request.csrf_token ?? '')), row.csrf_hash)) return null;
      return row;
    });
    if (!pending) {
      return { kind: 'fatal', error: 'invalid_request', error_description: 'This authorization request is unknown, expired or already answered. Start again from the application.' };
    }
    const finish = async (location: string): Promise<AuthorizeCompleteOutcome> => {
      await this.dataSource.transaction((manager) => this.repo.completeRequest(manager, pending.id));
      return { kind: 'redirect', location };
    };
    if (request.decision !== 'approve') {
      return finish(redirectTo(pending.redirect_uri, { error: 'access_denied', error_description: 'The user denied the request.', state: pending.state }));
    }
    const user = await this.users.findByEmail(String(request.email ?? ''));
    const ok = await verifyPassword(user?.password_hash, String(request.password ?? ''));
    const client = await this.repo.findClient(pending.client_id);
    if (!user || !ok || !client || user.disabled_at) {
      if (!user || !ok) {
        // The consent form is a login too: its failures are recorded like POST /v1/auth/login's.
        await this.dataSource.transaction((manager) =>
          this.audit.record(manager, {
            type: 'vigil.session.login_failed',
            target: { type: 'user', id: user?.id ?? null },
            subject: String(request.email ?? '').slice(0, 320),
            reason: user ? 'wrong_password' : 'unknown_user',
          }),
        );
      }
      return {
        kind: 'retry',
        request_id: pending.id,
        csrf_token: request.csrf_token,
        client_name: client?.name ?? pending.client_id,
        scopes: pending.scopes,
        redirect_host: new URL(pending.redirect_uri).host,
        message: user?.disabled_at && ok ? 'This account is disabled.' : 'The e-mail or password is wrong.',
      };
    }
    const granted = within(pending.scopes, user.scopes);
    if (!granted.length) {
      return finish(redirectTo(pending.redirect_uri, { error: 'invalid_scope', error_description: 'The user holds none of the requested scopes.', state: pending.state }));
    }
    const code = await this.dataSource.transaction(async (manager) => {
      const issued = await this.issueCode(manager, pending.client_id, user.id, pending.redirect_uri, granted, pending.code_challenge);
      await this.repo.completeRequest(manager, pending.id);
      await this.auditAuthorized(manager, pending.client_id, user.id, granted);
      return issued;
    });
    return { kind: 'redirect', location: redirectTo(pending.redirect_uri, { code, state: pending.state }) };
  }

  /** A user granted a client access: the user is the actor (the consent form authenticated them). */
  private auditAuthorized(manager: EntityManager, clientId: string, userId: string, scopes: string[]) {
    return this.audit.record(manager, {
      type: 'vigil.oauth.authorized',
      target: { type: 'oauth_client', id: clientId },
      actor: { kind: 'user', id: userId },
      after: { scopes },
    });
  }

  private async issueCode(manager: EntityManager, clientId: string, userId: string, redirectUri: string, scopes: string[], challenge: string): Promise<string> {
    const code = `${CODE_PREFIX}${randomBytes(32).toString('base64url')}`;
    await this.repo.insertCode(manager, {
      code_hash: sha256Hex(code),
      client_id: clientId,
      user_id: userId,
      redirect_uri: redirectUri,
      scopes,
      code_challenge: challenge,
      family_id: newId('session'),
      ttl_seconds: CODE_TTL_SECONDS,
    });
    return code;
  }

  // ---- token endpoint ---------------------------------------------------------------------

  private async authenticateClient(credentials: OAuthClientCredentials): Promise<OAuthClientRow | OAuthError> {
    if (credentials.methods.length > 1) return err('invalid_request', 'Use one client authentication method, not several.');
    if (!credentials.client_id || !credentials.client_secret) return err('invalid_client', 'Client authentication is required.', 401);
    const client = await this.repo.findClient(credentials.client_id);
    // Hash both ways, so an unknown client costs the same as a wrong secret.
    const presented = sha256Hex(credentials.client_secret);
    // During a rotation's overlap the previous secret is accepted too; both are always compared.
    const current = sameHash(presented, client?.secret_hash ?? '0'.repeat(64));
    const previous =
      sameHash(presented, client?.previous_secret_hash ?? '0'.repeat(64)) &&
      client?.previous_secret_expires_at !== null &&
      client?.previous_secret_expires_at !== undefined &&
      client.previous_secret_expires_at.getTime() > Date.now();
    if (!client || !(current || previous)) return err('invalid_client', 'Client authentication failed.', 401);
    return client;
  }

  async token(request: TokenRequest): Promise<TokenOutcome> {
    const client = await this.authenticateClient(request.client);
    if ('oauth_error' in client) return { ok: false, ...client };
    const form = request.form;
    const grant = form.grant_type;
    if (!grant) return { ok: false, ...err('invalid_request', 'grant_type is required.') };
    if (!(['authorization_code', 'client_credentials', 'refresh_token'] as string[]).includes(grant)) {
      return { ok: false, ...err('unsupported_grant_type', `Unsupported grant_type "${grant}".`) };
    }
    if (!client.grant_types.includes(grant)) return { ok: false, ...err('unauthorized_client', `This client may not use the ${grant} grant.`) };
    if (grant === 'authorization_code') return this.exchangeCode(client, form);
    if (grant === 'client_credentials') return this.clientCredentials(client, form);
    return this.refreshGrant(client, form);
  }

  private async exchangeCode(client: OAuthClientRow, form: Record<string, string>): Promise<TokenOutcome> {
    if (!form.code) return { ok: false, ...err('invalid_request', 'code is required.') };
    const codeHash = sha256Hex(form.code);
    const withRefresh = client.grant_types.includes('refresh_token');
    return this.dataSource.transaction(async (manager): Promise<TokenOutcome> => {
      const row = await this.repo.lockCode(manager, codeHash);
      const invalid = { ok: false as const, ...err('invalid_grant', 'The authorization code is invalid, expired or already used.') };
      if (!row || row.client_id !== client.client_id) return invalid;
      if (row.used_at) {
        // A code seen twice was stolen or replayed: what it was exchanged for dies too (RFC 6749 4.1.2).
        await this.tokens.revokeFamily(manager, row.family_id);
        return invalid;
      }
      // Any presentation by its client uses the code up, even one that fails the checks below.
      await this.repo.markCodeUsed(manager, codeHash);
      if (row.expires_at.getTime() <= Date.now()) return invalid;
      if (form.redirect_uri !== row.redirect_uri) return { ok: false, ...err('invalid_grant', 'redirect_uri does not match the authorization request.') };
      if (!verifyPkce(form.code_verifier, row.code_challenge)) return { ok: false, ...err('invalid_grant', 'PKCE verification failed.') };
      const user = await this.users.findById(row.user_id, manager);
      if (!user || user.disabled_at) return invalid;
      const scopes = within(within(row.scopes, client.scopes), user.scopes);
      await this.auditTokenIssued(manager, client.client_id, 'authorization_code', scopes, user.id);
      if (withRefresh) {
        const issued = await this.tokens.issue(user.id, scopes, { familyId: row.family_id, clientId: client.client_id }, manager);
        return { ok: true, tokens: { ...issued, scope: scopes.join(' ') } };
      }
      return {
        ok: true,
        tokens: {
          access_token: this.tokens.accessToken(user.id, scopes, { sid: row.family_id, client_id: client.client_id }),
          token_type: 'Bearer',
          expires_in: this.tokens.accessTokenTtl,
          scope: scopes.join(' '),
        },
      };
    });
  }

  private async clientCredentials(client: OAuthClientRow, form: Record<string, string>): Promise<TokenOutcome> {
    const requested = parseScope(form.scope) ?? client.scopes;
    const refused = requested.filter((s) => !(Scopes as readonly string[]).includes(s) || !within([s], client.scopes).length);
    if (refused.length) return { ok: false, ...err('invalid_scope', `Scope not allowed for this client: ${refused.join(' ')}.`) };
    // No refresh token for this grant (RFC 6749 4.4.3): the client simply asks again.
    await this.dataSource.transaction((manager) => this.auditTokenIssued(manager, client.client_id, 'client_credentials', requested, null));
    return {
      ok: true,
      tokens: {
        access_token: this.tokens.accessToken(client.client_id, requested, { client_id: client.client_id }),
        token_type: 'Bearer',
        expires_in: this.tokens.accessTokenTtl,
        scope: requested.join(' '),
      },
    };
  }

  private async refreshGrant(client: OAuthClientRow, form: Record<string, string>): Promise<TokenOutcome> {
    if (!form.refresh_token) return { ok: false, ...err('invalid_request', 'refresh_token is required.') };
    const narrowTo = parseScope(form.scope) ?? undefined;
    const outcome = await this.tokens.rotate(form.refresh_token, client.client_id, narrowTo);
    if (!outcome.ok) {
      if (outcome.reason === 'invalid_scope') return { ok: false, ...err('invalid_scope', 'The requested scope exceeds the one originally granted.') };
      return { ok: false, ...err('invalid_grant', 'The refresh token is invalid, expired, revoked or already used.') };
    }
    const scopes = within(outcome.scopes, client.scopes);
    return { ok: true, tokens: { ...outcome.tokens, scope: scopes.join(' ') } };
  }

  /** An access token issued to a client (the refresh grant is recorded as vigil.session.refreshed). */
  private auditTokenIssued(manager: EntityManager, clientId: string, grant: string, scopes: string[], userId: string | null) {
    return this.audit.record(manager, {
      type: 'vigil.oauth.token_issued',
      target: { type: 'oauth_client', id: clientId },
      actor: { kind: 'oauth_client', id: clientId },
      after: { grant_type: grant, scopes, user_id: userId },
    });
  }

  // ---- revocation (RFC 7009) --------------------------------------------------------------

  /** The client revoked one of its own tokens: named by session (family) id or `jti`, never by value. */
  private auditRevoked(manager: EntityManager, clientId: string, kind: 'session' | 'access_token', id: string) {
    return this.audit.record(manager, {
      type: 'vigil.token.revoked',
      target: { type: kind, id },
      actor: { kind: 'oauth_client', id: clientId },
      after: { revoked: true },
    });
  }

  async revoke(request: RevokeRequest): Promise<RevokeOutcome> {
    const client = await this.authenticateClient(request.client);
    if ('oauth_error' in client) return { ok: false, ...client };
    const token = request.token;
    if (!token) return { ok: false, ...err('invalid_request', 'token is required.') };
    if (token.startsWith(REFRESH_TOKEN_PREFIX)) {
      await this.dataSource.transaction(async (manager) => {
        const [row] = await manager.query(`SELECT family_id, client_id FROM auth.refresh_tokens WHERE token_hash = $1`, [hashToken(token)]);
        if (row && row.client_id === client.client_id) {
          await this.tokens.revokeFamily(manager, row.family_id);
          await this.auditRevoked(manager, client.client_id, 'session', row.family_id);
        }
      });
      return { ok: true };
    }
    const claims = this.verifyOwnAccessToken(token);
    if (claims && claims.client_id === client.client_id && claims.jti) {
      await this.dataSource.transaction(async (manager) => {
        await this.revocations.publish(manager, [{ kind: 'access_token', id: claims.jti!, expires_at: new Date(claims.exp * 1000).toISOString() }]);
        await this.auditRevoked(manager, client.client_id, 'access_token', claims.jti!);
      });
    }
    // RFC 7009 2.2: an unknown or foreign token is answered like a revoked one.
    return { ok: true };
  }

  private verifyOwnAccessToken(token: string): { jti?: string; exp: number; client_id?: string } | null {
    try {
      const kid = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')).kid;
      const key = this.keys.publicKey(String(kid));
      if (!key) return null;
      return verify(token, key, { algorithms: [JWT_ALGORITHM], issuer: this.config.JWT_ISSUER, audience: this.config.JWT_AUDIENCE }) as never;
    } catch {
      return null;
    }
  }
}
