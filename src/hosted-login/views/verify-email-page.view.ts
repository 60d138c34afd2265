import { html } from '../../common/html/html';
import { contextFields, LoginContext } from './login-page.view';
import { pageLayout } from '../../common/html/page-layout';
import { codeField } from './form-fields';

export interface VerifyEmailPageModel {
  /** Where the code form posts (the hosted verify route). */
  action: string;
  /** Where "send a new code" posts. */
  resendAction: string;
  csrfToken: string;
  email: string;
  next: string;
  context: LoginContext;
  brand?: string | null;
  error?: string | null;
  notice?: string | null;
}

/**
 * "Verify your email first": shown when the password was right but the address is unconfirmed.
 * The SAML flow reuses it: nothing is asserted to a service provider for an unverified email.
 */
export function renderVerifyEmailPage(model: VerifyEmailPageModel): string {
  const hasError = Boolean(model.error);
  const content = html`<h1>Verify your email first</h1>
    <p class="lead">We sent a 6-digit code to <strong>${model.email}</strong>. Enter it to confirm the address and continue.</p>
    <div id="form-error" class="alert error" role="alert">${model.error ?? ''}</div>
    ${model.notice ? html`<div class="alert ok" role="status">${model.notice}</div>` : ''}
    <form method="post" action="${model.action}" novalidate>
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      <input type="hidden" name="email" value="${model.email}" />
      ${contextFields(model.next, model.context)}
      ${codeField({ label: 'Verification code', hasError, hint: 'The code expires 1 hour after it was sent.' })}
      <button type="submit">Verify email</button>
    </form>
    <form method="post" action="${model.resendAction}">
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      <input type="hidden" name="email" value="${model.email}" />
      ${contextFields(model.next, model.context)}
      <button type="submit" class="secondary">Send a new code</button>
    </form>`;
  return pageLayout({ title: 'Verify your email', brand: model.brand }, content);
}
