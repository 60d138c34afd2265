import { html, SafeHtml } from '../../common/html/html';

/** @simplewebauthn/browser and the glue script, both served by this service (hosted-assets.controller.ts). */
export function passkeyScripts(): SafeHtml {
  return html`<script src="/auth/assets/simplewebauthn-browser.js"></script>
    <script src="/auth/assets/passkey.js"></script>`;
}

export interface PasskeyButtonOptions {
  label: string;
  /** `register` creates a credential; `authenticate` asks for one. */
  mode: 'register' | 'authenticate';
  /** Options rendered into the page (a ceremony already started for this page)… */
  options?: unknown;
  /** …or fetched on click (no ceremony is started for a page nobody uses). */
  optionsUrl?: string;
  secondary?: boolean;
}

/**
 * A button that runs a WebAuthn ceremony and posts its form with the credential in the hidden
 * `passkey_response` field. Without JavaScript it does nothing; the other forms still work.
 */
export function passkeyButton(o: PasskeyButtonOptions): SafeHtml {
  return html`<input type="hidden" name="passkey_response" value="" />
    <button
      type="button"
      data-webauthn="${o.mode}"
      ${o.options !== undefined ? html`data-options="${JSON.stringify(o.options)}"` : ''}
      ${o.optionsUrl ? html`data-options-url="${o.optionsUrl}"` : ''}
      ${o.secondary ? html`class="secondary"` : ''}
    >
      ${o.label}
    </button>`;
}
