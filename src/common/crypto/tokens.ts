import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Opaque credential: prefix + 40 random bytes, URL-safe (spec: scim_, contract: dat_). */
export function generateToken(prefix: string): string {
  return `${prefix}${randomBytes(40).toString('base64url')}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings (length leak only). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
