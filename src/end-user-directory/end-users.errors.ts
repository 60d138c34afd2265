import { errorCatalog } from '../common/errors';

/**
 * The end users' codes: sign-in, tokens, password reset, the second factor and passkeys. The
 * shared ones (validation_failed, unauthorized, not_found, …) are COMMON_ERRORS.
 */
export const END_USER_ERRORS = errorCatalog('end-users', {
  email_taken: 409,
  invalid_client: 400,
  invalid_credentials: 401,
  invalid_token: 401,
  invalid_password: 400,
  /** A wrong emailed or enrolment code: the request is malformed for what it tries to do. */
  invalid_code: 400,
  /** A wrong answer to a sign-in's second step: the sign-in is refused (401), the challenge lives on. */
  wrong_second_factor: { code: 'invalid_code', status: 401 },
  code_expired: 400,
  too_many_attempts: 429,
  mfa_token_invalid: 401,
  sign_in_blocked: 403,
  /** A hosted page's script call without the CSRF token of its form (the form expired or was not ours). */
  csrf_failed: 403,
  totp_already_enabled: 409,
  no_pending_totp: 409,
  no_second_factor: 409,
  passkey_exists: 409,
  too_many_passkeys: 409,
  passkey_not_offered: 409,
  passkey_not_accepted: 401,
  invalid_passkey_response: 400,
});
