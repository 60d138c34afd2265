/** Where the OpenID provider's authorization endpoint is served (src/oidc): a sign-in's `next` may continue it. */
const AUTHORIZE_PATH = '/oauth/authorize';
/** The parameter the authorization endpoint adds when it wants an authentication after that instant (src/oidc, AUTH_AFTER). */
const AUTH_AFTER = 'auth_after';

/**
 * The application URL a sign-in ends on when its `next` continues an OpenID authorization request:
 * the request's redirect_uri (the authorization endpoint checks it is registered before redirecting).
 * The hosted pages let their forms' redirects reach its origin (src/common/form-action.ts).
 */
export function continuationTarget(next: string): string | null {
  if (!next.startsWith(`${AUTHORIZE_PATH}?`)) return null;
  return new URLSearchParams(next.slice(AUTHORIZE_PATH.length + 1)).get('redirect_uri');
}

/**
 * Whether `next` continues an authorization request that forces a new authentication (prompt=login,
 * max_age, or a re-authentication the provider asked for: it then carries auth_after): an upstream
 * identity provider must then authenticate the person again too, not answer from its own session.
 */
export function forcesAuthentication(next: string): boolean {
  if (!next.startsWith(`${AUTHORIZE_PATH}?`)) return false;
  return new URLSearchParams(next.slice(AUTHORIZE_PATH.length + 1)).has(AUTH_AFTER);
}
