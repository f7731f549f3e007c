import { encryptionConfigSpec, env } from '@vigil/platform';

export const authConfigSpec = {
  ...encryptionConfigSpec,
  /** The first administrator, created or updated at every start with scope `admin`. */
  AUDIT_ADMIN_EMAIL: env.string({ default: 'admin@vigil.local' }),
  AUDIT_ADMIN_PASSWORD: env.optionalString({ secret: true }),
  JWT_ISSUER: env.string({ default: 'vigil' }),
  JWT_AUDIENCE: env.string({ default: 'vigil-api' }),
  ACCESS_TOKEN_TTL_SECONDS: env.int({ min: 60, max: 86_400, default: 3600 }),
  REFRESH_TOKEN_TTL_SECONDS: env.int({ min: 3600, max: 90 * 86_400, default: 30 * 86_400 }),
};
