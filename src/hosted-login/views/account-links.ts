import { html, SafeHtml } from '../../common/html/html';
import type { LoginContext } from './login-page.view';

/** The signed-in person's own hosted pages. */
export const ACCOUNT_PAGES = { security: '/auth/security/', sessions: '/auth/sessions/' } as const;

/** The link's query: the application (or workspace) to sign in to again if the session has ended. */
function contextQuery(context: LoginContext | undefined): string {
  const q = new URLSearchParams();
  if (context?.clientId) q.set('client_id', context.clientId);
  else if (context?.workspaceId) q.set('workspace_id', context.workspaceId);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * Links between the pages a signed-in person manages their account on (signed-in, security, sessions),
 * so the security page (two-step verification, passkeys) is found from the others.
 */
export function accountLinks(current: keyof typeof ACCOUNT_PAGES | null, context?: LoginContext): SafeHtml {
  const query = contextQuery(context);
  const link = (page: keyof typeof ACCOUNT_PAGES, label: string) =>
    current === page
      ? html`<a href="${ACCOUNT_PAGES[page]}${query}" aria-current="page">${label}</a>`
      : html`<a href="${ACCOUNT_PAGES[page]}${query}">${label}</a>`;
  return html`<nav class="meta account-links" aria-label="Your account">
    ${link('security', 'Security: two-step verification and passkeys')} · ${link('sessions', 'Your sessions')}
  </nav>`;
}
