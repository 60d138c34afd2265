import type { Request, Response } from 'express';
import { CONTINUATION_COOKIE, CONTINUATION_TTL_MS } from './sign-in-continuation';
import type { HostedRedirect } from './hosted-outcome';

export const SESSION_COOKIE = 'esid';
/** Hosted-login browser sessions last 12 hours; SSO then asks for the password again. */
export const BROWSER_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** The HTTP side of the browser session (cookie esid): for controllers; services take the token. */
export function sessionCookie(req: Request): unknown {
  return (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
}

export function setSessionCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: BROWSER_SESSION_TTL_MS });
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}

/**
 * The sign-in continuation (sign-in-continuation.ts): only the hosted login's own pages read it,
 * and only same-site form posts carry it.
 */
export function setContinuationCookie(res: Response, value: string, secure: boolean, path: string): void {
  res.cookie(CONTINUATION_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure, path, maxAge: CONTINUATION_TTL_MS });
}

export function clearContinuationCookie(res: Response, secure: boolean, path: string): void {
  res.clearCookie(CONTINUATION_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path });
}

/**
 * Sends a hosted page's redirect as `HostedRedirect` describes it: never cached, the session cookie set or cleared,
 * then 303 so the browser follows a form's POST with a GET. One place for the pages that answer one.
 */
export function sendHostedRedirect(res: Response, result: HostedRedirect, secure: boolean): void {
  res.setHeader('Cache-Control', 'no-store');
  if (result.sessionToken) setSessionCookie(res, result.sessionToken, secure);
  if (result.clearSession) clearSessionCookie(res, secure);
  res.redirect(303, result.location);
}
