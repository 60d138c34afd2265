import { DomainError, errorCatalog } from './errors';
import { isUuid } from './ids';

/**
 * The codes every surface shares: request shape, credentials, missing resources, limits, outages.
 * They are also what the exception filter answers for Nest's own HTTP exceptions (by status) and
 * for failures before routing (body parser, rate limits, the database being down).
 */
export const COMMON_ERRORS = errorCatalog('common', {
  bad_request: 400,
  validation_failed: 400,
  /** Answered by Node's HTTP parser hook (client-error.ts), before Express: a header it refused. */
  invalid_header: 400,
  invalid_body: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
});

export const notFound = (what = 'resource') => new DomainError(COMMON_ERRORS.not_found, `${what} not found`);

/**
 * What `find` answers for an id the request named, or not_found naming `what`: an id that is not a
 * UUID is a 404 before it reaches SQL, and so is one the caller may not see (never 403 across tenants).
 */
export async function findOr404<T>(what: string, id: string, find: (id: string) => Promise<T | null | undefined>): Promise<T> {
  if (!isUuid(id)) throw notFound(what);
  const found = await find(id);
  if (found === null || found === undefined) throw notFound(what);
  return found;
}
