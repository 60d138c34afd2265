import { html } from '../../common/html/html';
import { contextFields, HostedFormModel } from './login-page.view';
import { pageLayout } from '../../common/html/page-layout';
import { codeField, emailField, newPasswordField } from './form-fields';

interface ResetPageBase extends HostedFormModel {
  notice?: string | null;
}

/** Step 1: ask for the email. Also how a directory (SCIM) user sets a first password. */
export function renderResetRequestPage(model: ResetPageBase & { backHref: string }): string {
  const hasError = Boolean(model.error);
  const content = html`<h1>Reset your password</h1>
    <p class="lead">Enter your email. We will send you a code to choose a new password, or to set one for the first time.</p>
    <div id="form-error" class="alert error" role="alert">${model.error ?? ''}</div>
    <form method="post" action="${model.action}" novalidate>
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      ${contextFields(model.next, model.context)} ${emailField({ value: model.email, hasError, autofocus: true, autocomplete: 'email' })}
      <button type="submit">Send code</button>
    </form>
    <p class="meta"><a href="${model.backHref}">Back to sign in</a></p>`;
  return pageLayout({ title: 'Reset your password', brand: model.brand }, content);
}

/** Step 2: the emailed code and the new password. */
export function renderResetConfirmPage(model: ResetPageBase & { email: string }): string {
  const hasError = Boolean(model.error);
  const content = html`<h1>Choose a new password</h1>
    <p class="lead">If an account matches <strong>${model.email}</strong>, we emailed it a 6-digit code.</p>
    <div id="form-error" class="alert error" role="alert">${model.error ?? ''}</div>
    ${model.notice ? html`<div class="alert ok" role="status">${model.notice}</div>` : ''}
    <form method="post" action="${model.action}" novalidate>
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      <input type="hidden" name="email" value="${model.email}" />
      ${contextFields(model.next, model.context)} ${codeField({ label: 'Code from the email', hasError })}
      ${newPasswordField({
        name: 'new_password',
        label: 'New password',
        minLength: 8,
        hint: 'At least 8 characters. Other sessions are signed out.',
        hasError: false,
      })}
      <button type="submit">Set password</button>
    </form>`;
  return pageLayout({ title: 'Choose a new password', brand: model.brand }, content);
}
