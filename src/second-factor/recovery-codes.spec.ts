import { randomBytes } from 'node:crypto';
import { hashRecoveryCode, newRecoveryCode, recoveryCodeMatches } from './recovery-codes';

describe('recovery codes', () => {
  const key = randomBytes(32);

  it('draws distinct, readable codes', () => {
    const codes = new Set(Array.from({ length: 1000 }, newRecoveryCode));
    expect(codes.size).toBe(1000);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}$/);
  });

  it('matches a code typed in lower case, with spaces or without the dash', () => {
    const code = newRecoveryCode();
    const stored = hashRecoveryCode(key, 'user-1', code);
    expect(recoveryCodeMatches(key, 'user-1', code.toLowerCase(), stored)).toBe(true);
    expect(recoveryCodeMatches(key, 'user-1', ` ${code.replace('-', '')} `, stored)).toBe(true);
  });

  it("binds the hash to the account: another user's code never matches", () => {
    const code = newRecoveryCode();
    expect(recoveryCodeMatches(key, 'user-2', code, hashRecoveryCode(key, 'user-1', code))).toBe(false);
  });
});
