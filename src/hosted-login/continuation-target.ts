/** Where the OpenID provider's authorization endpoint is served (src/oidc): a sign-in's `next` may continue it. */
const AUTHORIZE_PATH = '/oauth/authorize';

/**
 * The application URL a sign-in ends on when its `next` continues an OpenID authorization request:
 * the request's redirect_uri (the authorization endpoint checks it is registered before redirecting).
 * The hosted pages let their forms' redirects reach its origin (src/common/form-action.ts).
 */
export function continuationTarget(next: string): string | null {
  if (!next.startsWith(`${AUTHORIZE_PATH}?`)) return null;
  return new URLSearchParams(next.slice(AUTHORIZE_PATH.length + 1)).get('redirect_uri');
}
