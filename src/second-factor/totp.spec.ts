import { matchingStep, newTotpSecret, totpCodeAt, totpUri } from './totp';

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1 seed "12345678901234567890" (base32 below), truncated to 6 digits.
  const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

  it('computes the RFC 6238 test vectors (6-digit truncation)', () => {
    expect(totpCodeAt(RFC_SECRET, new Date(59_000))).toBe('287082');
    expect(totpCodeAt(RFC_SECRET, new Date(1_111_111_109_000))).toBe('081804');
    expect(totpCodeAt(RFC_SECRET, new Date(2_000_000_000_000))).toBe('279037');
  });

  it('accepts the codes of the previous, current and next step and names the step', () => {
    const secret = newTotpSecret();
    const now = new Date(1_800_000_015_000);
    const step = Math.floor(now.getTime() / 30_000);
    expect(matchingStep(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(matchingStep(secret, totpCodeAt(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(matchingStep(secret, totpCodeAt(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(matchingStep(secret, totpCodeAt(secret, new Date(now.getTime() - 60_000)), now)).toBeNull();
  });

  it('refuses malformed codes without computing anything', () => {
    const secret = newTotpSecret();
    expect(matchingStep(secret, '12345', new Date())).toBeNull();
    expect(matchingStep(secret, 'abcdef', new Date())).toBeNull();
  });

  it('builds an otpauth:// URI naming issuer, account and parameters', () => {
    const uri = new URL(totpUri('JBSWY3DPEHPK3PXP', 'Acme Notes', 'ada@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(uri.searchParams.get('issuer')).toBe('Acme Notes');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(uri.pathname)).toContain('ada@example.com');
  });
});
