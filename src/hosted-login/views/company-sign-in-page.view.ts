import { html } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';

export interface CompanySignInPageModel {
  /** Where the connection's sign-in starts (a path of this service). */
  location: string;
  brand?: string | null;
}

/**
 * The step between the sign-in form and a company's identity provider. A form's redirects may only
 * lead to this service (CSP form-action), so the browser is handed on by this page, without
 * JavaScript: a refresh at once, and the same link for a person to follow (decision 0441).
 */
export function renderCompanySignInPage(model: CompanySignInPageModel): string {
  const content = html`<h1>Continue to your organization</h1>
    <p class="lead">Your organization signs you in with its own sign-in page.</p>
    <p><a href="${model.location}">Continue to your organization's sign-in page</a></p>`;
  return pageLayout({ title: 'Continue to your organization', brand: model.brand, refreshTo: model.location }, content);
}
