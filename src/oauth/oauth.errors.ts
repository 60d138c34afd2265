import { DomainError, errorCatalog } from '../common/errors';

/** RFC 6749 §5.2 error codes (plus RFC 6749 §4.1.2.1's, which the authorization endpoint redirects with, decision 0911). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'temporarily_unavailable'
  | 'server_error';

/** RFC 6749 §5.2: invalid_client is 401, an outage 503, a fault 500, every other refusal 400. */
export const OAUTH_ERRORS = errorCatalog('oauth', {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  temporarily_unavailable: 503,
  server_error: 500,
} satisfies Record<OAuthErrorCode, number>);

/**
 * A token-endpoint refusal. The OAuth surface's filter renders it as `{error, error_description}`
 * with Cache-Control: no-store. invalid_client is 401; a client that tried HTTP Basic also gets
 * `WWW-Authenticate: Basic` (RFC 6749 §5.2).
 */
export class OAuthError extends DomainError {
  constructor(code: OAuthErrorCode, description: string, opts: { basicChallenge?: boolean } = {}) {
    super(OAUTH_ERRORS[code], description, {
      headers:
        code === 'invalid_client' && opts.basicChallenge ? { 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' } : undefined,
    });
  }
}
