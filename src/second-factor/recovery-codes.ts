import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** Crockford-style alphabet without 0/O, 1/I/L, U: easy to read off paper and type. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
const GROUP = 5;

/** A code like `K7QH2-M9XTR`: 10 symbols of a 30-letter alphabet, about 49 bits from a CSPRNG. */
export function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 2 * GROUP; i++) {
    if (i === GROUP) out += '-';
    out += ALPHABET[randomInt(ALPHABET.length)];
  }
  return out;
}

/** Case, spaces and dashes do not matter when a code is typed back. */
export function normalizeRecoveryCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}

/** HMAC bound to the account, so equal codes of two users differ and a table dump reveals nothing. */
export function hashRecoveryCode(key: Buffer, userId: string, code: string): string {
  return createHmac('sha256', key)
    .update(`recovery\0${userId}\0${normalizeRecoveryCode(code)}`)
    .digest('hex');
}

/** Constant-time comparison of a submitted code with one stored hash. */
export function recoveryCodeMatches(key: Buffer, userId: string, submitted: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashRecoveryCode(key, userId, submitted), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
