import type { AuthKind } from './auth.decorator';

type BearerKind = Exclude<AuthKind, 'public'>;

/** What each surface takes, as a 401's detail says it. */
const EXPECTED: Record<BearerKind, string> = {
  scim: 'a SCIM token (Authorization: Bearer scim_…) minted for the workspace with POST /developer/scim/tokens/',
  developer: 'a developer token (Authorization: Bearer dat_…) or the dashboard session cookie',
  'end-user': "an end user's access token (Authorization: Bearer <JWT from /e/v1/auth/login/>)",
  ssf: "a Shared Signals receiver's access token (Authorization: Bearer <JWT from POST /oauth/token, scope ssf>)",
};

const PRESENTED: Record<BearerKind, string> = {
  scim: 'a SCIM token (scim_…), which only works on /scim/v2',
  developer: 'a developer token (dat_…), which only works on the /developer/ and /e/v1/developer/ API',
  'end-user': "an end user's access token, which only works on the end-user API",
  ssf: "a Shared Signals receiver's access token, which only works on the stream management endpoints",
};

/** The kind of credential a bearer value looks like, from its shape alone (nothing is looked up). */
function presentedKind(token: string): BearerKind | undefined {
  if (token.startsWith('scim_')) return 'scim';
  if (token.startsWith('dat_')) return 'developer';
  // A compact JWS: three base64url parts, the header a JSON object ("eyJ").
  if (/^eyJ[\w-]*\.[\w-]+\.[\w-]*$/.test(token)) return 'end-user';
  return undefined;
}

/**
 * The detail of a 401 on a route that takes `expected`: what was sent, when it is a credential
 * of another surface (a dat_ token on /scim/v2, a scim_ token on /developer/), and what the route
 * takes. Only the token's prefix is read; a token of the right kind that failed says nothing more.
 */
export function unauthorizedDetail(expected: BearerKind, authorization: string | undefined): string {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) return `Missing credentials: this endpoint expects ${EXPECTED[expected]}`;
  const presented = presentedKind(token);
  // A JWT may be an end user's or a receiver's: its shape does not say which.
  if (presented && presented !== expected && !(presented === 'end-user' && expected === 'ssf')) {
    return `Wrong kind of credential: this is ${PRESENTED[presented]}; this endpoint expects ${EXPECTED[expected]}`;
  }
  return `Invalid, expired or revoked credentials: this endpoint expects ${EXPECTED[expected]}`;
}
