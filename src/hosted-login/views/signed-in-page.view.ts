import { html } from '../../common/html/html';
import { contextFields, LoginContext } from './login-page.view';
import { pageLayout } from '../../common/html/page-layout';
import { accountLinks } from './account-links';

export interface SignedInPageModel {
  email: string;
  logoutAction: string;
  csrfToken: string;
  brand?: string | null;
  /** The application the person signed in to (the OAuth client, or the SAML SP), named on the page. */
  appName?: string | null;
  /** Kept through sign-out, so the form that follows is this application's again. */
  context?: LoginContext;
}

/**
 * Where a sign-in without `next` ends, and what a signed-in browser sees on the page: which
 * application it is signed in to and as whom.
 */
export function renderSignedInPage(model: SignedInPageModel): string {
  const content = html`<h1>You're signed in</h1>
    <p class="lead">
      ${model.appName ? html`Signed in to <strong>${model.appName}</strong> as <strong>${model.email}</strong>.` : html`Signed in as <strong>${model.email}</strong>.`}
    </p>
    ${model.appName ? html`<p>You can close this page and return to ${model.appName}.</p>` : ''}
    <form method="post" action="${model.logoutAction}">
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      ${model.context ? contextFields('/', model.context) : ''}
      <button type="submit" class="secondary">Sign out</button>
    </form>
    ${accountLinks(null, model.context)}`;
  return pageLayout({ title: model.appName ? `Signed in to ${model.appName}` : 'Signed in', brand: model.brand }, content);
}
