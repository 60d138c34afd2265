import { errorCatalog } from '../common/errors';

/** Managed databases' codes; conflict, service_unavailable and validation_failed are COMMON_ERRORS. */
export const MANAGED_DATABASE_ERRORS = errorCatalog('managed-databases', {
  /** The database or backup exists but is not in the state the operation needs. */
  not_ready: 409,
  not_supported: 400,
  /** The engine cannot serve this kind of database at all (not configured on this deployment). */
  engine_unavailable: 422,
  /** The engine answers, but an object the service made there is gone. */
  engine_object_missing: 503,
});
