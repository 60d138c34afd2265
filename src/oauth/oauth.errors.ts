import { DomainError } from '../common/errors';

/** RFC 6749 §5.2 error codes (plus RFC 6749 §4.1.2.1's, which issue 25 redirects with). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'temporarily_unavailable'
  | 'server_error';

/**
 * A token-endpoint refusal. The exception filter renders it as `{error, error_description}`
 * with Cache-Control: no-store. invalid_client is 401; a client that tried HTTP Basic also gets
 * `WWW-Authenticate: Basic` (RFC 6749 §5.2).
 */
export class OAuthError extends DomainError {
  constructor(code: OAuthErrorCode, description: string, opts: { basicChallenge?: boolean } = {}) {
    const status = code === 'invalid_client' ? 401 : code === 'temporarily_unavailable' ? 503 : code === 'server_error' ? 500 : 400;
    super(code, description, {
      status,
      headers:
        code === 'invalid_client' && opts.basicChallenge ? { 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' } : undefined,
    });
  }
}
