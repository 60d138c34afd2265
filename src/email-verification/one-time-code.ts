import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Six-digit one-time codes (email verification, password reset).
 * A 6-digit code has only 10^6 values, so a plain hash would fall to brute force from a database dump;
 * the stored value is an HMAC under a server-side key, bound to the purpose and the account.
 */
export const CODE_LENGTH = 6;
const CODE_SPACE = 10 ** CODE_LENGTH;

/** Uniform over 000000..999999: crypto.randomInt uses a CSPRNG with rejection sampling (no modulo bias). */
export function generateCode(): string {
  return randomInt(0, CODE_SPACE).toString().padStart(CODE_LENGTH, '0');
}

export function isWellFormedCode(code: unknown): code is string {
  return typeof code === 'string' && /^[0-9]{6}$/.test(code);
}

/** sign_in: the code mailed when a sign-in policy challenges a user without a second factor. */
export type CodePurpose = 'email_verification' | 'password_reset' | 'sign_in';

export function hashCode(key: Buffer | string, purpose: CodePurpose, accountId: string, code: string): string {
  return createHmac('sha256', key).update(`${purpose}\0${accountId}\0${code}`).digest('hex');
}

/** Constant-time check of a submitted code against the stored HMAC. */
export function codeMatches(key: Buffer | string, purpose: CodePurpose, accountId: string, submitted: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashCode(key, purpose, accountId, submitted), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
