import { errorCatalog } from '../common/errors';

/** The OpenID provider's own codes (its token endpoint refusals are OAUTH_ERRORS). */
export const OIDC_ERRORS = errorCatalog('oidc', {
  /** RFC 6750 §3.1, at UserInfo. */
  invalid_token: 401,
  /** RFC 6750 §3.1: the token sent twice (header and form). */
  invalid_request: 400,
});
