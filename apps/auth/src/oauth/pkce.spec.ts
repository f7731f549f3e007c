import { isS256Challenge, redirectUriProblem, verifyPkce } from './pkce';

describe('PKCE (RFC 7636)', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('accepts the verifier of the RFC example', () => {
    expect(isS256Challenge(challenge)).toBe(true);
    expect(verifyPkce(verifier, challenge)).toBe(true);
  });

  it('refuses another verifier, a missing one, a too short one, and the challenge itself (plain)', () => {
    expect(verifyPkce(`${verifier.slice(0, -1)}A`, challenge)).toBe(false);
    expect(verifyPkce(undefined, challenge)).toBe(false);
    expect(verifyPkce('short', challenge)).toBe(false);
    expect(verifyPkce(challenge, challenge)).toBe(false);
  });

  it('takes only S256-shaped challenges', () => {
    expect(isS256Challenge('plain-challenge')).toBe(false);
    expect(isS256Challenge(undefined)).toBe(false);
  });
});

describe('redirect URIs a client may register', () => {
  it.each([
    ['https://app.example.com/callback', null],
    ['http://127.0.0.1:8080/cb', null],
    ['http://localhost/cb', null],
    ['http://app.example.com/cb', 'must use https (http only for localhost, 127.0.0.1 or [::1])'],
    ['https://app.example.com/cb#x', 'must not contain a fragment'],
    ['https://user:pw@app.example.com/cb', 'must not contain credentials'],
    ['javascript:alert(1)', 'must use https (http only for localhost, 127.0.0.1 or [::1])'],
    ['/relative', 'must be an absolute URL'],
  ])('%s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });
});
