import { errorCatalog } from '../common/errors';

/** Email verification's codes; rate_limited and validation_failed are COMMON_ERRORS. */
export const EMAIL_VERIFICATION_ERRORS = errorCatalog('email-verification', {
  invalid_code: 400,
  code_expired: 400,
  too_many_attempts: 429,
  already_verified: 409,
  user_not_found: 404,
});
