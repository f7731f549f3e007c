import { adminPasswordField, adminPasswordWeakness } from './admin-password';

describe('bootstrap administrator password strength', () => {
  it('refuses short, single-character and common passwords without quoting them', () => {
    expect(adminPasswordWeakness('Sh0rt-pass!')).toMatch(/at least 12 characters long \(got 11\)/);
    expect(adminPasswordWeakness('aaaaaaaaaaaaaaaa')).toMatch(/repeats one character/);
    for (const common of ['password1234', 'Password1234', 'ADMINISTRATOR', '123456789012', 'changeme1234']) {
      const weakness = adminPasswordWeakness(common);
      expect(weakness).toMatch(/commonly used/);
      expect(weakness).not.toContain(common);
    }
  });

  it('accepts a long uncommon password, and unset (generated at first start)', () => {
    expect(adminPasswordWeakness('e2e-admin-password')).toBeUndefined();
    expect(adminPasswordField.parse('  correct horse battery staple \n')).toEqual({ ok: true, value: 'correct horse battery staple' });
    expect(adminPasswordField.parse(undefined)).toEqual({ ok: true, value: undefined });
    expect(adminPasswordField.parse('  ')).toEqual({ ok: true, value: undefined });
    const refused = adminPasswordField.parse('letmein');
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain('letmein');
  });
});
