/**
 * The hosted pages' only script (decision 0324): it wires buttons marked data-webauthn to
 * @simplewebauthn/browser, which the service serves itself (same origin, so the pages' CSP
 * `script-src 'self'` holds and nothing loads from elsewhere). A button's form carries the
 * CSRF token; the options come from data-options or a POST to data-options-url, and the
 * credential goes back in the form's hidden `passkey_response` field by an ordinary form post.
 */
export const PASSKEY_SCRIPT = `(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;
  function show(message) {
    var el = document.getElementById('form-error');
    if (el) el.textContent = message;
  }
  function optionsFor(button) {
    if (button.getAttribute('data-options')) return Promise.resolve(JSON.parse(button.getAttribute('data-options')));
    var body = new URLSearchParams(new FormData(button.form));
    return fetch(button.getAttribute('data-options-url'), {
      method: 'POST',
      body: body,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' }
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) throw new Error(json.message || 'Passkeys are not available right now.');
        return json;
      });
    });
  }
  function run(button) {
    var register = button.getAttribute('data-webauthn') === 'register';
    return optionsFor(button)
      .then(function (optionsJSON) {
        return register ? lib.startRegistration({ optionsJSON: optionsJSON }) : lib.startAuthentication({ optionsJSON: optionsJSON });
      })
      .then(function (credential) {
        button.form.querySelector('input[name="passkey_response"]').value = JSON.stringify(credential);
        button.form.submit();
      });
  }
  var supported = Boolean(lib && lib.browserSupportsWebAuthn());
  document.querySelectorAll('[data-webauthn]').forEach(function (button) {
    if (!supported) {
      button.disabled = true;
      button.title = 'This browser does not support passkeys';
      return;
    }
    button.addEventListener('click', function () {
      button.disabled = true;
      run(button).catch(function (err) {
        button.disabled = false;
        show(err && err.name === 'NotAllowedError' ? 'The passkey prompt was closed or timed out.' : (err && err.message) || 'The passkey did not work.');
      });
    });
  });
})();
`;
