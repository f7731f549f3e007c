import { encryptionConfigSpec, env } from '@vigil/platform';
import { adminPasswordField } from './admin-password';

export const authConfigSpec = {
  ...encryptionConfigSpec,
  /**
   * The bootstrap administrator, created or updated at every start with scope `admin`; an account
   * with this e-mail that auth did not create this way stops the start (docs/access.md).
   */
  AUDIT_ADMIN_EMAIL: env.string({ default: 'admin@vigil.local' }),
  AUDIT_ADMIN_PASSWORD: adminPasswordField,
  JWT_ISSUER: env.string({ default: 'vigil' }),
  JWT_AUDIENCE: env.string({ default: 'vigil-api' }),
  ACCESS_TOKEN_TTL_SECONDS: env.int({ min: 60, max: 86_400, default: 3600 }),
  /** Idle lifetime: a refresh token unused this long stops working (each refresh starts it again). */
  REFRESH_TOKEN_TTL_SECONDS: env.int({ min: 3600, max: 90 * 86_400, default: 30 * 86_400 }),
  /** Absolute lifetime of a login session from the login, however often it is refreshed. */
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS: env.int({ min: 1, max: 365 * 86_400, default: 30 * 86_400 }),
  /** How long an OAuth client's previous secret is still accepted after a rotation (default one day). */
  OAUTH_SECRET_OVERLAP_SECONDS: env.int({ min: 0, max: 30 * 86_400, default: 86_400 }),
  /** Age at which the token signing key is replaced by a new one (the old one stays published until its tokens expire). */
  SIGNING_KEY_ROTATION_DAYS: env.int({ min: 1, max: 3650, default: 90 }),
  /** How often expired authorization requests, codes and refresh tokens are deleted. */
  AUTH_PURGE_INTERVAL_SECONDS: env.int({ min: 1, max: 86_400, default: 3600 }),
};
