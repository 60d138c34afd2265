import { errorCatalog } from '../common/errors';

/** The event feed's own codes; validation_failed and not_found are COMMON_ERRORS. */
export const DIRECTORY_EVENT_ERRORS = errorCatalog('directory-events', {
  /** The position asked for is older than the retention kept: restart from the directory snapshot. */
  events_expired: 410,
});
