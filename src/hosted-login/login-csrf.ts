import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { safeEqual } from '../common/crypto/tokens';

export const CSRF_COOKIE = 'esid_csrf';

/**
 * CSRF protection for forms shown before anyone is signed in (login CSRF): a random value in an
 * HttpOnly cookie, and in the form its HMAC under a server key. A cross-site page can make the
 * browser send the cookie but can neither read it nor compute the token.
 */
export class LoginCsrf {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'identity-service', 'hosted-login-csrf', 32));
  }

  newCookieValue(): string {
    return randomBytes(32).toString('base64url');
  }

  tokenFor(cookieValue: string): string {
    return createHmac('sha256', this.key).update(cookieValue).digest('base64url');
  }

  check(cookieValue: unknown, token: unknown): boolean {
    if (typeof cookieValue !== 'string' || typeof token !== 'string' || cookieValue.length < 32) return false;
    return safeEqual(this.tokenFor(cookieValue), token);
  }
}

/**
 * The form token for this browser, setting the login-CSRF cookie when it is missing (or when asked
 * to renew it). Shared by every hosted form: login, sessions, consent, sign-out.
 */
export function formToken(
  csrf: LoginCsrf,
  req: { cookies?: unknown },
  res: { cookie(name: string, value: string, options: Record<string, unknown>): unknown },
  secure: boolean,
  renew = false,
): string {
  const current = (req.cookies as Record<string, unknown> | undefined)?.[CSRF_COOKIE];
  if (!renew && typeof current === 'string' && current.length >= 32) return csrf.tokenFor(current);
  const fresh = csrf.newCookieValue();
  res.cookie(CSRF_COOKIE, fresh, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  return csrf.tokenFor(fresh);
}
