import { errorCatalog } from '../common/errors';

/** Developer accounts' codes; unauthorized, forbidden and validation_failed are COMMON_ERRORS. */
export const DEVELOPER_ERRORS = errorCatalog('developers', {
  email_taken: 409,
  invalid_credentials: 401,
  csrf_failed: 403,
});
