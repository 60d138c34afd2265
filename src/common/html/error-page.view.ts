import { html } from './html';
import { pageLayout } from './page-layout';

export interface ErrorPageModel {
  status: number;
  title?: string;
  message: string;
  requestId?: string | null;
  /** A way forward, e.g. back to the sign-in form. Must be a relative path. */
  retryHref?: string | null;
  brand?: string | null;
  /** A way back to the application that sent the browser here (an absolute http(s) URL). */
  back?: { href: string; label: string };
}

/** Headings by status, for pages that say nothing more specific. */
const TITLES: Record<number, string> = {
  400: 'This request could not be completed',
  401: 'You need to sign in',
  403: 'This page has expired',
  404: 'Page not found',
  429: 'Too many attempts',
  503: 'Temporarily unavailable',
};

/** The heading of an error page that says nothing more specific than its status. */
export function errorPageTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'We could not complete this request');
}

/**
 * The message without the heading's words when it starts with them ("Too many attempts; wait a moment…"
 * under "Too many attempts"): the page says each thing once.
 */
function withoutTitle(title: string, message: string): string {
  if (!message.toLowerCase().startsWith(title.toLowerCase())) return message;
  const after = message.slice(title.length);
  const rest = after.replace(/^\s*[;:,.\u2014-]\s*/, '');
  // Only a whole phrase followed by a separator and more words ("Too many attempts; wait…").
  if (rest === after || rest.length === 0) return message;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** Error page for the hosted login and SAML surfaces. Never shows internals; the request id helps support. */
export function renderErrorPage(model: ErrorPageModel): string {
  const title = model.title ?? errorPageTitle(model.status);
  const content = html`<h1>${title}</h1>
    <div class="alert error" role="alert">${withoutTitle(title, model.message)}</div>
    ${model.retryHref ? html`<p><a href="${model.retryHref}">Back to sign in</a></p>` : ''}
    ${model.back ? html`<p><a href="${model.back.href}" rel="noreferrer">${model.back.label}</a></p>` : ''}
    ${model.requestId ? html`<p class="meta">Reference: <code>${model.requestId}</code></p>` : ''}`;
  return pageLayout({ title, brand: model.brand }, content);
}
