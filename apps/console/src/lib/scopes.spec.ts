import { hasScope, scopesOfToken } from './scopes';

const token = (claims: unknown) => `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.signature`;

describe('scopes of the signed-in user', () => {
  it('reads the space-separated scope claim of the access token', () => {
    const scopes = scopesOfToken(token({ sub: 'usr_1', scope: 'read:alerts write:alerts' }));
    expect([...scopes]).toEqual(['read:alerts', 'write:alerts']);
    expect(hasScope(scopes, 'write:alerts')).toBe(true);
    expect(hasScope(scopes, 'read:databases')).toBe(false);
  });

  it('lets admin do everything', () => {
    expect(hasScope(scopesOfToken(token({ scope: 'admin' })), 'write:policies')).toBe(true);
  });

  it('decodes base64url payloads that need padding and carry non-ASCII text', () => {
    expect([...scopesOfToken(token({ name: 'Zoë', scope: 'read:events' }))]).toEqual(['read:events']);
  });

  it('grants nothing for a missing, malformed or scope-less token', () => {
    for (const value of [undefined, '', 'not-a-jwt', 'a.%%%.c', token({ sub: 'x' }), token({ scope: 42 }), token('text')]) {
      expect(scopesOfToken(value).size).toBe(0);
    }
  });
});
