import { html } from '../../common/html/html';
import { codeField } from './form-fields';
import { contextFields, HostedFormModel } from './login-page.view';
import { pageLayout } from '../../common/html/page-layout';
import { passkeyButton, passkeyScripts } from './passkey-fields';

export interface SecondFactorPageModel extends Omit<HostedFormModel, 'email'> {
  mfaToken: string;
  methods: string[];
  /** Open the recovery-code form first (the user chose it, or got it wrong). */
  recoveryFirst?: boolean;
  /** WebAuthn request options of this page's passkey ceremony, when `passkey` is among the methods. */
  passkeyOptions?: unknown;
  /** What came before: the password (said so), a signed-in user's step-up (no password was asked), or unknown (a retry). */
  after?: 'password' | 'step-up';
}

const LEADS = {
  password: 'Your password is correct. Confirm it is you with your second factor.',
  'step-up': 'You are signed in. The application you are signing in to asks for your second factor as well.',
  unknown: 'Confirm it is you with your second factor.',
} as const;

/**
 * The second step of the hosted sign-in, after the password: exactly the methods of the challenge
 * (the authenticator code, "Use a passkey", and behind "Use a recovery code" a second form in a
 * <details> element). Only the passkey needs JavaScript.
 */
export function renderSecondFactorPage(model: SecondFactorPageModel): string {
  const hidden = html`<input type="hidden" name="csrf_token" value="${model.csrfToken}" />
    <input type="hidden" name="mfa_token" value="${model.mfaToken}" />
    ${contextFields(model.next, model.context)}`;
  const hasError = Boolean(model.error);
  const byEmail = !model.methods.includes('totp') && model.methods.includes('email_code');
  const totp =
    model.methods.includes('totp') || byEmail
      ? html`<form method="post" action="${model.action}" novalidate>
          ${hidden}
          ${codeField(
            byEmail
              ? {
                  label: 'Code from your email',
                  hasError,
                  hint: 'We emailed you a 6-digit code because this sign-in comes from a device we have not seen.',
                }
              : {
                  label: 'Authentication code',
                  hasError: hasError && !model.recoveryFirst,
                  hint: 'The 6-digit code your authenticator app shows.',
                },
          )}
          <button type="submit">Verify</button>
        </form>`
      : '';
  const recovery = model.methods.includes('recovery_code')
    ? html`<details ${model.recoveryFirst || (!model.methods.includes('totp') && !model.methods.includes('passkey')) ? html`open` : ''}>
        <summary>Use a recovery code</summary>
        <form method="post" action="${model.action}" novalidate>
          ${hidden}
          <div class="field">
            <label for="recovery_code">Recovery code</label>
            <input
              id="recovery_code"
              name="recovery_code"
              type="text"
              autocomplete="off"
              spellcheck="false"
              autocapitalize="characters"
              maxlength="64"
              required
              ${model.recoveryFirst ? html`autofocus` : ''}
              ${hasError && model.recoveryFirst ? html`aria-invalid="true" aria-describedby="form-error"` : ''}
            />
            <p class="hint">One of the codes you saved when you set up the second factor. Each works once.</p>
          </div>
          <button type="submit" class="secondary">Use recovery code</button>
        </form>
      </details>`
    : '';
  const passkey =
    model.methods.includes('passkey') && model.passkeyOptions !== undefined
      ? html`<form method="post" action="${model.action}" id="passkey-form">
            ${hidden}
            ${passkeyButton({ label: 'Use a passkey', mode: 'authenticate', options: model.passkeyOptions, secondary: model.methods.includes('totp') })}
          </form>
          ${passkeyScripts()}`
      : '';
  const content = html`<h1>Two-step verification</h1>
    <p class="lead">${LEADS[model.after ?? 'unknown']}</p>
    <div id="form-error" class="alert error" role="alert">${model.error ?? ''}</div>
    ${totp} ${passkey} ${recovery}`;
  return pageLayout({ title: 'Two-step verification', brand: model.brand }, content);
}
