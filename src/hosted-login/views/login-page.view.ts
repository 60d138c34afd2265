import { html, SafeHtml } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';
import { emailField, labelledInput } from './form-fields';
import { passkeyButton, passkeyScripts } from './passkey-fields';

/** Which accounts a hosted sign-in may pick from: one OAuth client's users, or one workspace's. */
export interface LoginContext {
  clientId?: string | null;
  workspaceId?: string | null;
}

/**
 * What every hosted form page of a sign-in carries: where the form posts, its CSRF token, the request it
 * continues (`next`, `context`), the brand, and what the person typed and was told last.
 */
export interface HostedFormModel {
  action: string;
  csrfToken: string;
  next: string;
  context: LoginContext;
  brand?: string | null;
  email?: string;
  error?: string | null;
}

export interface LoginPageModel extends HostedFormModel {
  /** The application being signed in to, when it is not the brand (a SAML service provider). */
  appName?: string | null;
  notice?: string | null;
  /** "Forgot your password?" link (same context). */
  resetHref?: string;
  /** "Create an account" link (same context and request), when the application allows sign-up. */
  signUpHref?: string | null;
  /** "Continue with a passkey": where the credential is posted and where the page's script gets the options. */
  passkey?: { action: string; optionsUrl: string };
  /** Some addresses sign in at their company's identity provider: the password may be left empty for them. */
  companySignIn?: boolean;
}

/** The password input; where a company signs its people in, it may be left empty and says so. */
function passwordField(model: LoginPageModel, hasError: boolean): SafeHtml {
  const describedBy = [model.companySignIn ? 'password-hint' : '', hasError ? 'form-error' : ''].filter(Boolean).join(' ');
  return labelledInput({
    name: 'password',
    label: 'Password',
    type: 'password',
    attributes: html`autocomplete="current-password" ${model.companySignIn ? '' : html`required`} maxlength="256"
    ${describedBy ? html`aria-describedby="${describedBy}"` : ''} ${hasError ? html`aria-invalid="true" autofocus` : ''}`,
    under: model.companySignIn
      ? html`<p class="hint" id="password-hint">
          Signing in with your work account? Leave it empty: your organization's sign-in page opens.
        </p>`
      : '',
  });
}

/** Sign-in with a discoverable passkey instead of the password (the ceremony starts on click). */
function passkeySignIn(model: LoginPageModel): SafeHtml | string {
  if (!model.passkey) return '';
  return html`<form method="post" action="${model.passkey.action}" class="passkey-sign-in">
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      ${contextFields(model.next, model.context)}
      ${passkeyButton({ label: 'Continue with a passkey', mode: 'authenticate', optionsUrl: model.passkey.optionsUrl, secondary: true })}
    </form>
    ${passkeyScripts()}`;
}

/** Hidden fields that carry the sign-in context and destination through a POST. */
export function contextFields(next: string, context: LoginContext): SafeHtml {
  return html`<input type="hidden" name="next" value="${next}" />
    ${context.clientId ? html`<input type="hidden" name="client_id" value="${context.clientId}" />` : ''}
    ${context.workspaceId ? html`<input type="hidden" name="workspace_id" value="${context.workspaceId}" />` : ''}`;
}

export function renderLoginPage(model: LoginPageModel): string {
  const hasError = Boolean(model.error);
  const content = html`<h1>Sign in</h1>
    <p class="lead">
      ${model.appName || model.brand ? html`to continue to ${model.appName || model.brand}` : 'with the email and password of your account'}
    </p>
    <div id="form-error" class="alert error" role="alert">${model.error ?? ''}</div>
    ${model.notice ? html`<div class="alert ok" role="status">${model.notice}</div>` : ''}
    <form method="post" action="${model.action}" novalidate>
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      ${contextFields(model.next, model.context)}
      ${emailField({ value: model.email, hasError, autofocus: !hasError, autocomplete: 'username' })} ${passwordField(model, hasError)}
      <button type="submit">Sign in</button>
    </form>
    ${passkeySignIn(model)}
    ${model.resetHref ? html`<p class="meta"><a href="${model.resetHref}">Forgot your password, or never set one?</a></p>` : ''}
    ${model.signUpHref ? html`<p class="meta">New here? <a href="${model.signUpHref}">Create an account</a></p>` : ''}`;
  return pageLayout({ title: 'Sign in', brand: model.brand }, content);
}
