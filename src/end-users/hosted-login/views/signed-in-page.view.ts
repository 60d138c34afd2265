import { html } from './html';
import { pageLayout } from './page-layout';

export interface SignedInPageModel {
  email: string;
  logoutAction: string;
  csrfToken: string;
  brand?: string | null;
}

/** Landing page when a browser is already signed in and no `next` was given. */
export function renderSignedInPage(model: SignedInPageModel): string {
  const content = html`<h1>You're signed in</h1>
    <p class="lead">Signed in as <strong>${model.email}</strong>.</p>
    <form method="post" action="${model.logoutAction}">
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      <button type="submit" class="secondary">Sign out</button>
    </form>`;
  return pageLayout({ title: 'Signed in', brand: model.brand }, content);
}
