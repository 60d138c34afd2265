import type { Response } from 'express';
import { isReverseDomainScheme } from './uri-schemes';

const FORM_ACTION_SELF = "form-action 'self'";

/**
 * Lets the forms of this page lead, through redirects, to these URLs' origins as well. Browsers apply
 * CSP `form-action` to every redirect that follows a form submission, so the app-wide `form-action
 * 'self'` would stop a sign-in form whose answer is a redirect chain ending on an application's
 * registered redirect URI (OpenID Connect). Only http(s) origins and reverse-domain private-use schemes
 * are added; the page's own forms still post to this service.
 */
export function allowFormRedirectsTo(res: Response, urls: readonly (string | null | undefined)[]): void {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!url) continue;
    try {
      const { protocol, origin } = new URL(url);
      if (protocol === 'https:' || protocol === 'http:') origins.add(origin);
      // A native app's private-use scheme (RFC 8252 §7.1) has no origin: allowed as a CSP scheme-source.
      else if (isReverseDomainScheme(protocol)) origins.add(protocol);
    } catch {
      // not a URL: nothing to allow
    }
  }
  const csp = res.getHeader('Content-Security-Policy');
  if (!origins.size || typeof csp !== 'string' || !csp.includes(FORM_ACTION_SELF)) return;
  res.setHeader('Content-Security-Policy', csp.replace(FORM_ACTION_SELF, `${FORM_ACTION_SELF} ${[...origins].join(' ')}`));
}
