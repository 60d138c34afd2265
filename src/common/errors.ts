/**
 * Services throw DomainError with a stable string code taken from an error catalog; the exception
 * filter of the route's surface (decision 0160) turns it into a body (JSON, SCIM, OAuth, HTML).
 *
 * Each feature declares its codes and their statuses once, in its `<feature>.errors.ts` (decision 0161):
 *
 *   export const MFA_ERRORS = errorCatalog('end-users', { totp_already_enabled: 409, … });
 *   throw new DomainError(MFA_ERRORS.totp_already_enabled, 'TOTP is already on');
 *
 * An ErrorCode can only be made by `errorCatalog`, so a code without a catalog entry does not compile.
 */
export interface DomainErrorOptions {
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
  /** RFC 7644 §3.12 scimType, rendered on SCIM routes. */
  scimType?: string;
  /** Response headers the error must carry (e.g. RFC 6749 §5.2's WWW-Authenticate for invalid_client). */
  headers?: Record<string, string>;
}

const MADE_BY_A_CATALOG = Symbol('errorCatalog');

/** One entry of an error catalog: the code clients branch on and the status it is answered with. */
export interface ErrorCode {
  readonly code: string;
  readonly status: number;
  /** The catalog that declares it (the feature's name). */
  readonly catalog: string;
  readonly [MADE_BY_A_CATALOG]: true;
}

/**
 * An entry is the status, or `{ code, status }` when one wire code is answered with two statuses in
 * one feature (the entry's name then says which case it is).
 */
export type ErrorEntry = number | { code: string; status: number };

export type ErrorCatalog<K extends string> = { readonly [P in K]: ErrorCode };

const catalogs = new Map<string, ErrorCatalog<string>>();

/** Declares a feature's error codes. Called once per catalog file, at module load. */
export function errorCatalog<K extends string>(name: string, entries: Record<K, ErrorEntry>): ErrorCatalog<K> {
  if (catalogs.has(name)) throw new Error(`error catalog ${name} is declared twice`);
  const catalog = {} as Record<K, ErrorCode>;
  for (const [key, entry] of Object.entries(entries) as [K, ErrorEntry][]) {
    const { code, status } = typeof entry === 'number' ? { code: key as string, status: entry } : entry;
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new Error(`error ${name}.${key}: ${status} is not an error status`);
    }
    catalog[key] = Object.freeze({ code, status, catalog: name, [MADE_BY_A_CATALOG]: true as const });
  }
  const frozen = Object.freeze(catalog);
  catalogs.set(name, frozen);
  return frozen;
}

/** Every catalog loaded so far, by name (the catalog test loads them all). */
export function loadedErrorCatalogs(): ReadonlyMap<string, ErrorCatalog<string>> {
  return catalogs;
}

export class DomainError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;
  readonly scimType?: string;
  readonly headers?: Record<string, string>;

  constructor(
    readonly error: ErrorCode,
    message: string,
    opts: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.code = error.code;
    this.status = error.status;
    this.details = opts.details;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.scimType = opts.scimType;
    this.headers = opts.headers;
  }
}
