import { ErrorCode, errorCatalog } from '../common/errors';

/**
 * SAML's codes. The SSO refusals (`saml_<reason>`, each also audited as saml_sso_failure with its
 * reason) are answered as the HTML error page, which shows the status and the message; the code
 * names the refusal in logs and tests. validation_failed is COMMON_ERRORS.
 */
export const SAML_ERRORS = errorCatalog('saml', {
  /** The IdP has no signing key and certificate (production without SAML_* set). */
  not_configured: 503,
  sp_entity_id_taken: 409,
  /** The AuthnRequest cannot be read (missing, too large, not base64/DEFLATE, not a valid AuthnRequest). */
  saml_request_invalid: 400,
  saml_unknown_sp: 400,
  saml_sp_inactive: 400,
  saml_acs_mismatch: 400,
  saml_unsupported_binding: 400,
  saml_destination_mismatch: 400,
  saml_stale_request: 400,
  saml_early_request: 400,
  saml_replayed_request: 400,
  saml_bad_relay_state: 400,
  saml_empty_name_id: 400,
  /** The parked request is gone (expired, or finished in another tab). */
  saml_request_expired: 400,
  /** An email NameID for a user whose address is not verified. */
  saml_email_unverified: 403,
  saml_build_error: 500,
});

/** The catalog entry of an SSO refusal, by its code (`saml_<reason>`); an unlisted reason is a bug. */
export function samlRefusal(code: string): ErrorCode {
  const entry = Object.values<ErrorCode>(SAML_ERRORS).find((e) => e.code === code);
  if (!entry) throw new Error(`SSO refusal ${code} has no entry in SAML_ERRORS`);
  return entry;
}
