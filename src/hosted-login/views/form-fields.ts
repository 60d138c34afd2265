import { html, SafeHtml } from '../../common/html/html';

/**
 * The inputs several hosted pages share, so their accessibility attributes (labels, autocomplete,
 * error association) stay the same everywhere.
 */
/**
 * A field's box: the label, the input (its id and its name are both `name`) with the attributes
 * that make it this field, and what stands under it (a hint).
 */
export function labelledInput(f: { name: string; label: string; type: string; attributes: SafeHtml; under?: SafeHtml | '' }): SafeHtml {
  return html`<div class="field">
    <label for="${f.name}">${f.label}</label>
    <input id="${f.name}" name="${f.name}" type="${f.type}" ${f.attributes} />
    ${f.under ?? ''}
  </div>`;
}

/**
 * The email input. `autocomplete` is one valid token (HTML autofill): `username` where the address is the
 * account's name beside a password (sign-in, sign-up), `email` where only the address is asked for.
 */
export function emailField(opts: {
  value: string | undefined;
  hasError: boolean;
  autofocus: boolean;
  autocomplete: 'username' | 'email';
}): SafeHtml {
  return labelledInput({
    name: 'email',
    label: 'Email',
    type: 'email',
    attributes: html`autocomplete="${opts.autocomplete}" inputmode="email" required maxlength="254" spellcheck="false" autocapitalize="none"
    value="${opts.value ?? ''}" ${opts.hasError ? html`aria-invalid="true" aria-describedby="form-error"` : ''}
    ${opts.autofocus ? html`autofocus` : ''}`,
  });
}

/** The 6-digit code input; `hint` adds a described-by note under it. */
export function codeField(opts: { label: string; hasError: boolean; hint?: string }): SafeHtml {
  const describedBy = [opts.hint ? 'code-hint' : '', opts.hasError ? 'form-error' : ''].filter(Boolean).join(' ');
  return labelledInput({
    name: 'code',
    label: opts.label,
    type: 'text',
    attributes: html`class="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus
    ${describedBy ? html`aria-describedby="${describedBy}"` : ''} ${opts.hasError ? html`aria-invalid="true"` : ''}`,
    under: opts.hint ? html`<p class="hint" id="code-hint">${opts.hint}</p>` : '',
  });
}

/**
 * A new password's input and its hint (sign-up, reset); with `hasError` it points at the form's
 * error, is marked invalid and takes the focus.
 */
export function newPasswordField(opts: {
  name: 'password' | 'new_password';
  label: string;
  minLength: number;
  hint: string;
  hasError: boolean;
}): SafeHtml {
  return labelledInput({
    name: opts.name,
    label: opts.label,
    type: 'password',
    attributes: html`autocomplete="new-password" required minlength="${String(opts.minLength)}" maxlength="256"
    aria-describedby="password-hint${opts.hasError ? ' form-error' : ''}" ${opts.hasError ? html`aria-invalid="true" autofocus` : ''}`,
    under: html`<p class="hint" id="password-hint">${opts.hint}</p>`,
  });
}
