import type { MfaStatusView, TotpEnrolmentView } from '../../mfa/mfa.service';
import { codeField } from './form-fields';
import { html, SafeHtml } from '../../../common/html/html';
import { pageLayout } from '../../../common/html/page-layout';

export interface SecurityPageModel {
  email: string;
  csrfToken: string;
  /** Base path of the forms (…/auth/security/). */
  base: string;
  status: MfaStatusView;
  notice?: string | null;
  error?: string | null;
  /** Shown once, after confirming the first factor or regenerating. */
  recoveryCodes?: string[] | null;
  /** A set-up in progress: the QR code, the URI and the secret. */
  enrolment?: TotpEnrolmentView | null;
}

const csrf = (token: string) => html`<input type="hidden" name="csrf_token" value="${token}" />`;

function enrolmentSection(model: SecurityPageModel, e: TotpEnrolmentView): SafeHtml {
  return html`<section aria-labelledby="enrol-heading">
    <h2 id="enrol-heading">Set up an authenticator app</h2>
    <p>Scan this QR code with your authenticator app, or enter the key by hand. Then type the code it shows.</p>
    ${e.qrSvgDataUrl ? html`<p><img src="${e.qrSvgDataUrl}" width="200" height="200" alt="QR code of the authenticator key" /></p>` : ''}
    <p>Key: <code id="totp-secret">${e.secret}</code></p>
    <p class="meta">Link for apps on this device: <a id="otpauth-uri" href="${e.otpauth_uri}">${e.otpauth_uri}</a></p>
    <form method="post" action="${model.base}totp/confirm/" novalidate>
      ${csrf(model.csrfToken)} ${codeField({ label: 'Authentication code', hasError: Boolean(model.error) })}
      <button type="submit">Turn on</button>
    </form>
  </section>`;
}

function recoveryCodesSection(codes: string[]): SafeHtml {
  return html`<section aria-labelledby="codes-heading">
    <h2 id="codes-heading">Your recovery codes</h2>
    <p>Keep these somewhere safe. Each one signs you in once if you lose your authenticator. They are shown only now.</p>
    <ul id="recovery-codes" aria-label="Recovery codes">
      ${codes.map((c) => html`<li><code>${c}</code></li>`)}
    </ul>
  </section>`;
}

/** The hosted security page: the signed-in user's second factors, set up and removed here. */
export function renderSecurityPage(model: SecurityPageModel): string {
  const s = model.status;
  const factors = html`<section aria-labelledby="factors-heading">
    <h2 id="factors-heading">Two-step verification</h2>
    <table id="factors">
      <tr>
        <td><strong>Authenticator app</strong></td>
        <td>${s.totp ? 'On' : 'Off'}</td>
      </tr>
      <tr>
        <td><strong>Recovery codes</strong></td>
        <td>${s.totp ? `${s.recovery_codes_left} left` : 'None'}</td>
      </tr>
    </table>
    ${
      s.totp
        ? html`<form method="post" action="${model.base}recovery-codes/">
              ${csrf(model.csrfToken)}
              <button type="submit" class="secondary">New recovery codes</button>
            </form>
            <details>
              <summary>Remove the authenticator app</summary>
              <form method="post" action="${model.base}totp/remove/" novalidate>
                ${csrf(model.csrfToken)}
                <div class="field">
                  <label for="remove_code">Current code or a recovery code</label>
                  <input id="remove_code" name="proof" type="text" autocomplete="one-time-code" maxlength="64" required />
                </div>
                <button type="submit" class="secondary">Remove authenticator app</button>
              </form>
            </details>`
        : model.enrolment
          ? ''
          : html`<form method="post" action="${model.base}totp/">
              ${csrf(model.csrfToken)}
              <button type="submit">Set up authenticator app</button>
            </form>`
    }
  </section>`;
  const content = html`<h1>Security</h1>
    <p class="lead">Signed in as ${model.email}.</p>
    <div id="form-error" class="alert error" role="alert" aria-live="assertive">${model.error ?? ''}</div>
    ${model.notice ? html`<div class="alert ok" role="status">${model.notice}</div>` : ''}
    ${model.recoveryCodes?.length ? recoveryCodesSection(model.recoveryCodes) : ''}
    ${model.enrolment ? enrolmentSection(model, model.enrolment) : ''} ${factors}`;
  return pageLayout({ title: 'Security', wide: true }, content);
}
