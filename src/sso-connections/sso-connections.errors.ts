import { errorCatalog } from '../common/errors';

/**
 * The developer API's codes for connections (validation_failed and not_found are COMMON_ERRORS).
 * A refused upstream sign-in is not an error of this catalog: it is a page with its reason
 * (upstream-refusals.ts).
 */
export const SSO_CONNECTION_ERRORS = errorCatalog('sso-connections', {
  /** Another connection of the workspace already serves this email domain. */
  domain_taken: 409,
});
