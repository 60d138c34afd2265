import { codeMatches, generateCode, hashCode, isWellFormedCode } from './one-time-code';

const KEY = 'test-key';
const USER = '6f1c3a1e-0000-4000-8000-000000000001';

describe('one-time codes', () => {
  it('are six digits, leading zeros kept', () => {
    for (let i = 0; i < 2000; i++) expect(generateCode()).toMatch(/^[0-9]{6}$/);
  });

  it('spread evenly over the first digit (chi-square, 9 degrees of freedom)', () => {
    const counts = new Array<number>(10).fill(0);
    const n = 50_000;
    for (let i = 0; i < n; i++) counts[Number(generateCode()[0])]++;
    const expected = n / 10;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(27.88); // p = 0.001
  });

  it('match only the same code, purpose and account', () => {
    const stored = hashCode(KEY, 'email_verification', USER, '012345');
    expect(codeMatches(KEY, 'email_verification', USER, '012345', stored)).toBe(true);
    expect(codeMatches(KEY, 'email_verification', USER, '012346', stored)).toBe(false);
    expect(codeMatches(KEY, 'password_reset', USER, '012345', stored)).toBe(false);
    expect(codeMatches(KEY, 'email_verification', USER.replace('1', '2'), '012345', stored)).toBe(false);
    expect(codeMatches('other-key', 'email_verification', USER, '012345', stored)).toBe(false);
  });

  it('are never stored as the code itself', () => {
    expect(hashCode(KEY, 'email_verification', USER, '123456')).not.toContain('123456');
  });

  it('reject malformed submissions before any comparison', () => {
    expect(isWellFormedCode('12345')).toBe(false);
    expect(isWellFormedCode('1234567')).toBe(false);
    expect(isWellFormedCode('12a456')).toBe(false);
    expect(isWellFormedCode(123456)).toBe(false);
    expect(isWellFormedCode('000000')).toBe(true);
  });
});
