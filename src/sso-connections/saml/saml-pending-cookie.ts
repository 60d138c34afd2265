import type { Response } from 'express';
import { SAML_REQUEST_TTL_MS } from './saml-pending-requests';

/**
 * The cookie holding the SAML requests this browser waits on (decision 0424). SameSite=None: the
 * IdP's answer is a cross-site form POST, which carries no Lax cookie. Always Secure, which
 * browsers require with None (and accept on http://localhost for development).
 */
export const SAML_PENDING_COOKIE = 'sso_saml';
const OPTIONS = { httpOnly: true, sameSite: 'none', secure: true, path: '/auth/sso/' } as const;

export function setSamlPendingCookie(res: Response, value: string): void {
  res.cookie(SAML_PENDING_COOKIE, value, { ...OPTIONS, maxAge: SAML_REQUEST_TTL_MS });
}

export function clearSamlPendingCookie(res: Response): void {
  res.clearCookie(SAML_PENDING_COOKIE, OPTIONS);
}
