import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type {
  AccessPage,
  AccessPageRequest,
  ChangeOwnPasswordRequest,
  CreateUserRequest,
  CredentialRevocationReason,
  CredentialRevoked,
  LogoutRequest,
  ResetPasswordRequest,
  RevokedSessionsResponse,
  Revoking,
  UpdateUserRequest,
  UserResponse,
} from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { CONFIG, DomainException, LOGGER, type Logger, StartNotices, StartRefused } from '@vigil/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import type { AuthConfig } from '../auth.service-definition';
import { adminPasswordWeakness } from '../config/admin-password';
import { RevocationsPublisher } from '../revocations/revocations.publisher';
import { RefreshTokensRepository } from '../tokens/refresh-tokens.repository';
import { TokensService } from '../tokens/tokens.service';
import { hashPassword, verifyPassword } from './password-hasher';
import { type UserRow, UsersRepository } from './users.repository';

export enum UsersErrorCode {
  EmailTaken = 'user_email_taken',
  NotFound = 'user_not_found',
  LastAdministrator = 'last_administrator',
  WeakPassword = 'weak_password',
  WrongPassword = 'wrong_current_password',
  SessionNotFound = 'session_not_found',
}

export function toUserResponse(row: UserRow): UserResponse {
  return {
    id: row.id,
    email: row.email,
    scopes: row.scopes,
    created_at: (row.created_at ?? new Date()).toISOString(),
    disabled_at: row.disabled_at ? row.disabled_at.toISOString() : null,
  };
}

function weakPassword(password: string, field: string): DomainException | undefined {
  const weakness = adminPasswordWeakness(password);
  return weakness ? new DomainException(422, UsersErrorCode.WeakPassword, `The new password ${weakness}.`, [{ field, message: weakness }]) : undefined;
}

const sessionsRevoked = (revoked: CredentialRevoked[]): Revoking<RevokedSessionsResponse> => ({ result: { revoked_sessions: revoked.length }, revoked });

const notFound = (id: string) => DomainException.notFound('User', id, UsersErrorCode.NotFound);

function notTheBootstrapAccount(email: string): StartRefused {
  return new StartRefused(
    `AUDIT_ADMIN_EMAIL (${email}) belongs to an existing account that was not created as the bootstrap administrator; ` +
      'it is left as it is (not made an administrator, password not changed). Set AUDIT_ADMIN_EMAIL to an address no account uses ' +
      '(docs/access.md, "Bootstrap administrator").',
  );
}

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(TokensService) private readonly tokens: TokensService,
    @Inject(RefreshTokensRepository) private readonly refreshTokens: RefreshTokensRepository,
    @Inject(ApiKeysRepository) private readonly apiKeys: ApiKeysRepository,
    @Inject(RevocationsPublisher) private readonly revocations: RevocationsPublisher,
    @Inject(CONFIG) private readonly config: AuthConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(StartNotices) private readonly notices: StartNotices,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  /**
   * AUDIT_ADMIN_EMAIL/AUDIT_ADMIN_PASSWORD create or update the bootstrap administrator at start.
   * With no password configured and no administrator yet, one is generated and shown once, in the
   * start-up banner (never in a log line of its own); later starts find the administrator and
   * show nothing. An account with that e-mail that the bootstrap did not create (a user added
   * through the API) is never made an administrator nor given the configured password: the start
   * is refused instead, since going on would leave the operator without the administrator they
   * configured (and a silent takeover of someone's account is worse).
   */
  async onApplicationBootstrap() {
    const email = this.config.AUDIT_ADMIN_EMAIL;
    let password = this.config.AUDIT_ADMIN_PASSWORD;
    if (!password) {
      if ((await this.users.countAdmins()) > 0) return;
      password = randomBytes(18).toString('base64url');
      this.notices.add(
        { label: 'Administrator', value: email, field: 'administrator_email' },
        { label: 'Password', value: password, field: 'administrator_password', note: 'shown once; set AUDIT_ADMIN_PASSWORD to choose it' },
      );
    }
    const existing = await this.users.findByEmail(email);
    if (existing && !existing.bootstrap) throw notTheBootstrapAccount(email);
    const ensured = await this.users.upsertBootstrap({
      id: existing?.id ?? newId('user'),
      email,
      password_hash: await hashPassword(password),
      scopes: ['admin'],
    });
    if (!ensured) throw notTheBootstrapAccount(email);
    this.logger.info({ email }, 'administrator ensured');
  }

  async create(request: CreateUserRequest): Promise<UserResponse> {
    const passwordHash = await hashPassword(request.password);
    const row = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.users.insert({ id: newId('user'), email: request.email, password_hash: passwordHash, scopes: [...new Set(request.scopes)] }, manager);
      if (!inserted) throw new DomainException(409, UsersErrorCode.EmailTaken, 'A user with this e-mail address exists.');
      // Never the password nor its hash.
      await this.audit.record(manager, { type: 'vigil.user.created', target: { type: 'user', id: inserted.id }, after: { email: inserted.email, scopes: inserted.scopes } });
      return inserted;
    });
    return toUserResponse(row);
  }

  async list(page: AccessPageRequest): Promise<AccessPage<UserResponse>> {
    const { rows, total } = await this.users.page(page.per_page, (page.page - 1) * page.per_page);
    return {
      data: rows.map(toUserResponse),
      pagination: { total, page: page.page, per_page: page.per_page, has_more: page.page * page.per_page < total },
    };
  }

  async get(id: string): Promise<UserResponse> {
    const row = await this.users.findById(id);
    if (!row) throw notFound(id);
    return toUserResponse(row);
  }

  /**
   * Changes scopes and/or disables or enables an account. Disabling revokes every session and
   * every API key the user created, in the same transaction, announced to every gateway; taking a
   * scope away revokes the sessions too (their access tokens carry the old scopes). The last
   * enabled administrator can be neither disabled nor demoted.
   */
  async update(request: UpdateUserRequest): Promise<Revoking<UserResponse>> {
    return this.dataSource.transaction(async (manager) => {
      const before = await this.users.lockById(manager, request.id);
      if (!before) throw notFound(request.id);
      const scopes = request.scopes ? [...new Set(request.scopes)] : undefined;
      const losesAdmin = before.scopes.includes('admin') && !before.disabled_at && (request.disabled === true || (scopes !== undefined && !scopes.includes('admin')));
      if (losesAdmin) await this.assertAnotherAdmin(manager, before.id);
      const after = (await this.users.update(manager, before.id, { scopes, disabled: request.disabled })) ?? before;
      let revoked: CredentialRevoked[] = [];
      if (request.disabled === true && !before.disabled_at) {
        revoked = await this.revokeEverything(manager, after.id, 'user_disabled');
      } else if (scopes && before.scopes.some((s) => !scopes.includes(s))) {
        revoked = await this.tokens.revokeUserSessions(manager, after.id, 'scopes_reduced');
      }
      await this.audit.record(manager, {
        type: request.disabled === true && !before.disabled_at ? 'vigil.user.disabled' : 'vigil.user.updated',
        target: { type: 'user', id: after.id },
        before: { scopes: before.scopes, disabled: Boolean(before.disabled_at) },
        after: { scopes: after.scopes, disabled: Boolean(after.disabled_at) },
      });
      return { result: toUserResponse(after), revoked };
    });
  }

  /** Deletes an account after revoking its sessions and API keys (announced like a disable). */
  async delete(id: string): Promise<Revoking<UserResponse>> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.users.lockById(manager, id);
      if (!row) throw notFound(id);
      if (row.scopes.includes('admin') && !row.disabled_at) await this.assertAnotherAdmin(manager, row.id);
      const revoked = await this.revokeEverything(manager, row.id, 'user_deleted');
      await this.users.delete(manager, row.id);
      await this.audit.record(manager, { type: 'vigil.user.deleted', target: { type: 'user', id: row.id }, before: { email: row.email, scopes: row.scopes } });
      return { result: toUserResponse(row), revoked };
    });
  }

  /** An administrator sets a new password: every session of the user ends. */
  async resetPassword(request: ResetPasswordRequest): Promise<Revoking<RevokedSessionsResponse>> {
    const weak = weakPassword(request.password, 'password');
    if (weak) throw weak;
    const hash = await hashPassword(request.password);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.users.lockById(manager, request.id);
      if (!row) throw notFound(request.id);
      await this.users.update(manager, row.id, { password_hash: hash });
      await this.audit.record(manager, { type: 'vigil.user.password_reset', target: { type: 'user', id: row.id } });
      return sessionsRevoked(await this.tokens.revokeUserSessions(manager, row.id, 'password_changed'));
    });
  }

  /**
   * A user changes their own password, proving the current one; their other sessions end (the one
   * the request came with stays, so the user is not logged out by their own change).
   */
  async changeOwnPassword(request: ChangeOwnPasswordRequest): Promise<Revoking<RevokedSessionsResponse>> {
    const row = await this.users.findById(request.user_id);
    const ok = await verifyPassword(row?.password_hash, request.current_password);
    if (!row || row.disabled_at || !ok) {
      throw new DomainException(403, UsersErrorCode.WrongPassword, 'The current password is wrong.', [{ field: 'current_password', message: 'is wrong' }]);
    }
    const weak = weakPassword(request.new_password, 'new_password');
    if (weak) throw weak;
    const hash = await hashPassword(request.new_password);
    return this.dataSource.transaction(async (manager) => {
      await this.users.update(manager, row.id, { password_hash: hash });
      await this.audit.record(manager, { type: 'vigil.user.password_changed', target: { type: 'user', id: row.id } });
      return sessionsRevoked(await this.tokens.revokeUserSessions(manager, row.id, 'password_changed', request.keep_session_id ?? null));
    });
  }

  /** Ends every session of a user (their API keys stay). */
  async revokeSessions(id: string): Promise<Revoking<RevokedSessionsResponse>> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.users.lockById(manager, id);
      if (!row) throw notFound(id);
      const revoked = await this.tokens.revokeUserSessions(manager, row.id, 'revoked');
      await this.audit.record(manager, { type: 'vigil.session.revoked', target: { type: 'user', id: row.id } });
      return sessionsRevoked(revoked);
    });
  }

  /** Logout: the session the access token belongs to is revoked (its refresh token and access tokens). */
  async logout(request: LogoutRequest): Promise<RevokedSessionsResponse> {
    return this.dataSource.transaction(async (manager) => {
      const owner = await this.refreshTokens.familyOwner(manager, request.session_id);
      if (owner !== request.user_id) throw DomainException.notFound('Session', request.session_id, UsersErrorCode.SessionNotFound);
      await this.tokens.revokeFamily(manager, request.session_id, 'logged_out');
      await this.audit.record(manager, { type: 'vigil.session.logged_out', target: { type: 'session', id: request.session_id } });
      return { revoked_sessions: 1 };
    });
  }

  private async revokeEverything(manager: EntityManager, userId: string, reason: CredentialRevocationReason): Promise<CredentialRevoked[]> {
    const sessions = await this.tokens.revokeUserSessions(manager, userId, reason);
    const keys = await this.apiKeys.revokeCreatedBy(manager, `user:${userId}`);
    const revokedKeys = keys.map((k) => ({ kind: 'api_key' as const, id: k.id, expires_at: k.expires_at?.toISOString() ?? null, reason }));
    // Also by user: access tokens without a refresh token (an OAuth code exchange without the
    // refresh_token grant) belong to no stored session.
    const now = new Date().toISOString();
    const user = { kind: 'user' as const, id: userId, expires_at: this.tokens.accessTokensEnd(), issued_before: now, reason };
    await this.revocations.publish(manager, [...revokedKeys, user]);
    return [...sessions, ...revokedKeys, user];
  }

  private async assertAnotherAdmin(manager: EntityManager, userId: string): Promise<void> {
    if ((await this.users.countOtherActiveAdmins(manager, userId)) === 0) {
      throw new DomainException(409, UsersErrorCode.LastAdministrator, 'This is the last enabled administrator: make another user an administrator first.');
    }
  }
}
