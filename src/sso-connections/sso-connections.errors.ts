import { errorCatalog } from '../common/errors';

/**
 * The developer API's codes for connections (validation_failed and not_found are COMMON_ERRORS).
 * A refused upstream sign-in is not an error of this catalog: it is a page with its reason
 * (upstream-refusals.ts).
 */
export const SSO_CONNECTION_ERRORS = errorCatalog('sso-connections', {
  /** Another connection of the workspace already serves this email domain. */
  domain_taken: 409,
  /** Another workspace has verified this email domain (decision 0440). */
  domain_claimed: 409,
  /** The DNS answered, without the verification TXT record. */
  txt_record_not_found: 422,
  /** The DNS did not answer the TXT lookup (timeout, SERVFAIL, refused). */
  dns_lookup_failed: 503,
});
