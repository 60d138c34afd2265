import { renderErrorPage as renderHostedErrorPage } from './error-page.view';

export { errorPageTitle } from './error-page.view';

/**
 * The error page of the browser-facing surfaces (SAML, hosted login), in the hosted login's look.
 * `referer`, when it is another site's http(s) address (the application that sent the browser
 * here), becomes a "Back to <host>" link: a way back that needs no knowledge of the request.
 */
export function renderErrorPage(
  status: number,
  title: string,
  message: string,
  requestId?: string,
  referer?: string,
  ownHost?: string,
): string {
  return renderHostedErrorPage({ status, title, message, requestId, back: backLink(referer, ownHost) });
}

export function backLink(referer: string | undefined, ownHost: string | undefined): { href: string; label: string } | undefined {
  if (!referer) return undefined;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (ownHost && url.host === ownHost) return undefined;
  return { href: url.origin + '/', label: `Back to ${url.host}` };
}
