/**
 * Services throw DomainError with a stable string code; the exception filter
 * turns it into a status and the body of the surface (JSON, SCIM, HTML).
 */
export interface DomainErrorOptions {
  status?: number;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
  /** RFC 7644 §3.12 scimType, rendered on SCIM routes. */
  scimType?: string;
  /** Response headers the error must carry (e.g. RFC 6749 §5.2's WWW-Authenticate for invalid_client). */
  headers?: Record<string, string>;
}

const STATUS_BY_CODE: Record<string, number> = {
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_token: 401,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  not_ready: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  engine_unavailable: 422,
  rate_limited: 429,
  too_many_attempts: 429,
  not_configured: 503,
  service_unavailable: 503,
};

export function statusForCode(code: string): number {
  if (STATUS_BY_CODE[code]) return STATUS_BY_CODE[code];
  if (code.endsWith('_taken') || code.endsWith('_exists')) return 409;
  return 400;
}

export class DomainError extends Error {
  readonly status: number;
  readonly details?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;
  readonly scimType?: string;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: string,
    message: string,
    opts: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.status = opts.status ?? statusForCode(code);
    this.details = opts.details;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.scimType = opts.scimType;
    this.headers = opts.headers;
  }
}

export const notFound = (what = 'resource') => new DomainError('not_found', `${what} not found`);
