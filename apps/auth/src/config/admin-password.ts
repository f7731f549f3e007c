import type { Field } from '@vigil/platform';

export const ADMIN_PASSWORD_MIN_LENGTH = 12;

/**
 * Passwords long enough to pass the length rule that are still among the first an attacker tries
 * (leaked-password lists, keyboard walks, the product's own name). Compared case-insensitively.
 */
const COMMON = new Set([
  '123456789012', '1234567890123', '12345678901234', '123456123456', '111111111111', '000000000000',
  '123123123123', '987654321098', 'abcdefghijkl', 'abcd12345678', 'abc123abc123', 'qwertyuiop12',
  'qwertyuiopas', 'qwertyuiop123', '1qaz2wsx3edc', '1q2w3e4r5t6y', 'q1w2e3r4t5y6', 'asdfghjkl123',
  'zxcvbnm12345', 'password1234', 'password12345', 'password123!', 'passwordpassword', 'p@ssw0rd1234',
  'passw0rd1234', 'mypassword123', 'password2024', 'password2025', 'password2026', 'changeme1234',
  'changeme123!', 'letmein12345', 'welcome12345', 'welcome123456', 'iloveyou1234', 'sunshine1234',
  'football1234', 'baseball1234', 'princess1234', 'dragon123456', 'monkey123456', 'master123456',
  'trustno1trustno1', 'administrator', 'administrator1', 'administrator123', 'admin1234567', 'admin123456789',
  'adminadmin123', 'adminpassword', 'admin@123456', 'superuser123', 'rootpassword', 'root12345678',
  'secret123456', 'default12345', 'vigil1234567', 'vigiladmin123', 'vigilpassword', 'auditpassword',
  'audit1234567', 'changeit1234', 'test12345678', 'testtesttest', 'guest1234567', 'qazwsxedcrfv',
]);

/** Why the bootstrap administrator's password is refused, or undefined. Never quotes the password. */
export function adminPasswordWeakness(password: string): string | undefined {
  if (password.length < ADMIN_PASSWORD_MIN_LENGTH) {
    return `is too weak: it must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters long (got ${password.length}); e.g. openssl rand -base64 24`;
  }
  if (new Set(password).size === 1) return 'is too weak: it repeats one character';
  if (COMMON.has(password.toLowerCase())) return 'is too weak: it is on the list of commonly used passwords';
  return undefined;
}

/** AUDIT_ADMIN_PASSWORD: unset (a password is generated on a first start) or strong enough. */
export const adminPasswordField: Field<string | undefined> = {
  description: `the first administrator's password: at least ${ADMIN_PASSWORD_MIN_LENGTH} characters, not a common password; unset = generated on a first start`,
  secret: true,
  parse(raw) {
    // Trimmed like every variable (a secret file's trailing newline is not part of the password).
    const password = raw?.trim();
    if (!password) return { ok: true, value: undefined };
    const weakness = adminPasswordWeakness(password);
    return weakness ? { ok: false, message: weakness } : { ok: true, value: password };
  },
};
