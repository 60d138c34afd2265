import { html } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';

/** "Sign out of <app>?": asked when the logout request cannot prove it comes from the application (no valid id_token_hint). */
export function renderLogoutConfirmPage(model: {
  action: string;
  csrfToken: string;
  email: string;
  appName: string | null;
  params: Readonly<Record<string, string>>;
}): string {
  const content = html`<h1>Sign out?</h1>
    <p class="lead">
      You are signed in as <strong>${model.email}</strong>${model.appName ? html` (from <strong>${model.appName}</strong>)` : ''}. Signing
      out ends this browser's session and the applications' sessions that came from it.
    </p>
    <form method="post" action="${model.action}">
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      <input type="hidden" name="confirm" value="1" />
      ${Object.entries(model.params).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
      <button type="submit">Sign out</button>
    </form>`;
  return pageLayout({ title: 'Sign out', brand: model.appName }, content);
}

export function renderSignedOutPage(appName: string | null): string {
  const content = html`<h1>You're signed out</h1>
    <p class="lead">${appName ? html`You are signed out of ${appName}. ` : ''}You can close this page.</p>`;
  return pageLayout({ title: 'Signed out', brand: appName }, content);
}
