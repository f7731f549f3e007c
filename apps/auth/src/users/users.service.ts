import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { newId } from '@vigil/domain';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import type { AuthConfig } from '../auth.service-definition';
import { hashPassword } from './password-hasher';
import { UsersRepository } from './users.repository';

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(CONFIG) private readonly config: AuthConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * AUDIT_ADMIN_EMAIL/AUDIT_ADMIN_PASSWORD create or update the first administrator at start. With
   * no password configured and no administrator yet, one is generated and printed once.
   */
  async onApplicationBootstrap() {
    const email = this.config.AUDIT_ADMIN_EMAIL;
    let password = this.config.AUDIT_ADMIN_PASSWORD;
    if (!password) {
      if ((await this.users.countAdmins()) > 0) return;
      password = randomBytes(18).toString('base64url');
      process.stdout.write(
        `\n  Vigil: created administrator ${email} with password ${password}\n` +
          `  (shown once; set AUDIT_ADMIN_PASSWORD to choose it)\n\n`,
      );
    }
    const existing = await this.users.findByEmail(email);
    await this.users.upsertByEmail({
      id: existing?.id ?? newId('user'),
      email,
      password_hash: await hashPassword(password),
      scopes: ['admin'],
    });
    this.logger.info({ email }, 'administrator ensured');
  }
}
