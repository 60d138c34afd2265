import type { MfaStatusView, TotpEnrolmentView } from '../../second-factor/mfa.service';
import { codeField } from './form-fields';
import { html, SafeHtml } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';
import { accountLinks } from './account-links';
import { passkeyButton, passkeyScripts } from './passkey-fields';

export interface SecurityPageModel {
  email: string;
  csrfToken: string;
  /** Base path of the forms (…/auth/security/). */
  base: string;
  status: MfaStatusView;
  /** The person's application (or workspace), shown as on the sign-in pages. */
  brand?: string | null;
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

/** Passkeys: each with its name, dates, rename and remove; and "Add a passkey" (the ceremony starts on click). */
function passkeysSection(model: SecurityPageModel): SafeHtml {
  const keys = model.status.passkeys;
  const rows = keys.map(
    (k) =>
      html`<tr>
        <td><strong>${k.name}</strong></td>
        <td>Added ${k.created_at.slice(0, 10)}${k.last_used_at ? html`, last used ${k.last_used_at.slice(0, 10)}` : ''}</td>
        <td>
          <details>
            <summary>Rename or remove</summary>
            <form method="post" action="${model.base}passkeys/rename/">
              ${csrf(model.csrfToken)}
              <input type="hidden" name="passkey_id" value="${k.id}" />
              <div class="field">
                <label for="rename-${k.id}">New name for ${k.name}</label>
                <input id="rename-${k.id}" name="name" type="text" maxlength="64" required value="${k.name}" />
              </div>
              <button type="submit" class="secondary">Rename</button>
            </form>
            <form method="post" action="${model.base}passkeys/remove/">
              ${csrf(model.csrfToken)}
              <input type="hidden" name="passkey_id" value="${k.id}" />
              <button type="submit" class="secondary" aria-label="Remove passkey ${k.name}">Remove</button>
            </form>
          </details>
        </td>
      </tr>`,
  );
  return html`<section aria-labelledby="passkeys-heading">
    <h2 id="passkeys-heading">Passkeys</h2>
    ${
      keys.length
        ? html`<table id="passkeys" aria-label="Passkeys">
            ${rows}
          </table>`
        : html`<p id="passkeys-none">No passkeys yet. A passkey signs you in with your device's screen lock or a security key.</p>`
    }
    <form method="post" action="${model.base}passkeys/">
      ${csrf(model.csrfToken)}
      <div class="field">
        <label for="passkey_name">Passkey name</label>
        <input id="passkey_name" name="name" type="text" maxlength="64" placeholder="e.g. Work laptop" />
      </div>
      ${passkeyButton({ label: 'Add a passkey', mode: 'register', optionsUrl: `${model.base}passkeys/options/` })}
    </form>
    ${passkeyScripts()}
  </section>`;
}

/** The hosted security page: the signed-in user's second factors, set up and removed here. */
export function renderSecurityPage(model: SecurityPageModel): string {
  const s = model.status;
  const anyFactor = s.totp || s.passkeys.length > 0;
  const factors = html`<section aria-labelledby="factors-heading">
    <h2 id="factors-heading">Two-step verification</h2>
    <table id="factors">
      <tr>
        <td><strong>Authenticator app</strong></td>
        <td>${s.totp ? 'On' : 'Off'}</td>
      </tr>
      <tr>
        <td><strong>Recovery codes</strong></td>
        <td>${anyFactor ? `${s.recovery_codes_left} left` : 'None'}</td>
      </tr>
    </table>
    ${
      anyFactor
        ? html`<form method="post" action="${model.base}recovery-codes/">
            ${csrf(model.csrfToken)}
            <button type="submit" class="secondary">New recovery codes</button>
          </form>`
        : ''
    }
    ${
      s.totp
        ? html`<details>
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
    <div id="form-error" class="alert error" role="alert">${model.error ?? ''}</div>
    ${model.notice ? html`<div class="alert ok" role="status">${model.notice}</div>` : ''}
    ${model.recoveryCodes?.length ? recoveryCodesSection(model.recoveryCodes) : ''}
    ${model.enrolment ? enrolmentSection(model, model.enrolment) : ''} ${factors} ${passkeysSection(model)} ${accountLinks('security')}`;
  return pageLayout({ title: 'Security', brand: model.brand, wide: true }, content);
}
