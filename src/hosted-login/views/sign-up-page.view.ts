import { html } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';
import { emailField, newPasswordField } from './form-fields';
import { contextFields, HostedFormModel } from './login-page.view';

export interface SignUpPageModel extends HostedFormModel {
  /** Back to the sign-in form of the same application and request. */
  signInHref: string;
  passwordMinLength: number;
}

/** "Create an account": email and a new password; the emailed 6-digit code comes next (decision 0317). */
export function renderSignUpPage(model: SignUpPageModel): string {
  const hasError = Boolean(model.error);
  const content = html`<h1>Create an account</h1>
    <p class="lead">${model.brand ? html`to continue to ${model.brand}` : 'with your email address and a password'}</p>
    <div id="form-error" class="alert error" role="alert">${model.error ?? ''}</div>
    <form method="post" action="${model.action}" novalidate>
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      ${contextFields(model.next, model.context)}
      ${emailField({ value: model.email, hasError, autofocus: !hasError, autocomplete: 'username' })}
      ${newPasswordField({
        name: 'password',
        label: 'Password',
        minLength: model.passwordMinLength,
        hint: `At least ${String(model.passwordMinLength)} characters.`,
        hasError,
      })}
      <button type="submit">Create account</button>
    </form>
    <p class="meta">We will email you a 6-digit code to confirm the address.</p>
    <p class="meta">Already have an account? <a href="${model.signInHref}">Sign in</a></p>`;
  return pageLayout({ title: 'Create an account', brand: model.brand }, content);
}
