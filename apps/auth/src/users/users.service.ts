import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { CreateUserRequest, AccessPage, AccessPageRequest, UserResponse } from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { CONFIG, DomainException, LOGGER, type Logger, StartNotices, StartRefused } from '@vigil/platform';
import { DataSource } from 'typeorm';
import type { AuthConfig } from '../auth.service-definition';
import { hashPassword } from './password-hasher';
import { type UserRow, UsersRepository } from './users.repository';

export enum UsersErrorCode {
  EmailTaken = 'user_email_taken',
}

export function toUserResponse(row: UserRow): UserResponse {
  return { id: row.id, email: row.email, scopes: row.scopes, created_at: (row.created_at ?? new Date()).toISOString() };
}

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
    @Inject(CONFIG) private readonly config: AuthConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(StartNotices) private readonly notices: StartNotices,
    @Inject(DataSource) private readonly dataSource: DataSource,
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
}
