import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../common/html/escape';

export interface AutoPostForm {
  /** Where the browser POSTs (the SP's ACS URL). */
  action: string;
  samlResponse: string;
  relayState?: string;
}

export interface RenderedPage {
  html: string;
  headers: Record<string, string>;
}

/**
 * The HTTP-POST binding page (saml-bindings §3.5.4): a form that a nonce'd script
 * submits at once, with a visible button for browsers without scripts. It carries
 * its own headers because the app-wide CSP (form-action 'self') would block the
 * cross-origin POST; no-store because the body holds a bearer assertion.
 */
export function renderAutoPostPage(form: AutoPostForm): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const relay = form.relayState ? `<input type="hidden" name="RelayState" value="${escapeHtml(form.relayState)}">` : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Signing you in…</title></head>
<body><form id="saml-post" method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(form.samlResponse)}">${relay}
<noscript><p>Scripts are disabled in your browser. Press Continue to finish signing in.</p></noscript>
<button type="submit">Continue</button></form>
<script nonce="${nonce}">document.getElementById('saml-post').submit();</script></body></html>`;
  return {
    html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
      // No form-action: browsers apply it to the ACS's own redirects too, which would
      // break SPs whose ACS hands off to another origin. The page holds no markup
      // but ours (every field escaped) and runs only the nonce'd script.
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    },
  };
}
