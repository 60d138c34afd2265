import { renderErrorPage as renderHostedErrorPage } from './error-page.view';

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

/** The heading of an error page that says nothing more specific than its status. */
export function errorPageTitle(status: number): string {
  if (status === 404) return 'Page not found';
  if (status === 503) return 'Service unavailable';
  if (status >= 500) return 'Something went wrong';
  return 'We could not complete this request';
}
