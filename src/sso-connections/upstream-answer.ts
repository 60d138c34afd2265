import type { Response } from 'express';
import { renderErrorPage } from '../common/html/error-page';
import { setSessionCookie } from '../hosted-login/browser-session-cookie';
import type { UpstreamSignInResult } from './upstream-sign-in.service';

/**
 * Writes what UpstreamSignInService answered, for the controllers of both protocol halves: the
 * hosted login's session cookie (esid) and a 303 to where the sign-in continues, or the error
 * page with the refusal's status and its reason in words (never a 5xx).
 */
export function sendUpstreamResult(res: Response, result: UpstreamSignInResult, secureCookies: boolean, requestId: string): void {
  res.setHeader('Cache-Control', 'no-store');
  if (result.kind === 'signed-in') {
    setSessionCookie(res, result.sessionToken, secureCookies);
    res.redirect(303, result.location);
    return;
  }
  res
    .status(result.status)
    .type('html')
    .send(renderErrorPage(result.status, 'Sign-in refused', result.message, requestId));
}
