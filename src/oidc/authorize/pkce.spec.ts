import { isS256Challenge, verifierMatches } from './pkce';

describe('PKCE S256', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('accepts the verifier of RFC 7636 Appendix B for its challenge', () => {
    expect(isS256Challenge(challenge)).toBe(true);
    expect(verifierMatches(verifier, challenge)).toBe(true);
  });

  it('refuses another verifier, a short one, or the challenge itself (plain)', () => {
    expect(verifierMatches(`${verifier.slice(0, -1)}A`, challenge)).toBe(false);
    expect(verifierMatches('short', challenge)).toBe(false);
    expect(verifierMatches(challenge, challenge)).toBe(false);
  });

  it('refuses challenges that are not a SHA-256 in base64url', () => {
    expect(isS256Challenge('plain-value')).toBe(false);
    expect(isS256Challenge(`${challenge}=`)).toBe(false);
  });
});
