import type { AppClient } from '../oidc.repository';
import { APPLICATION_SCOPES, OPENID } from '../scopes';
import { isS256Challenge } from './pkce';
import { registeredRedirect } from './redirect-uri';

/** RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6 error codes of the authorization endpoint. */
export type AuthorizeErrorCode =
  | 'invalid_request'
  | 'unauthorized_client'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'request_not_supported'
  | 'request_uri_not_supported';

export type Prompt = 'none' | 'login' | 'consent' | 'select_account';
const PROMPTS: readonly Prompt[] = ['none', 'login', 'consent', 'select_account'];

/** Parameters this server adds to the request it sends itself back to after the hosted login. */
export const AUTH_AFTER = 'auth_after';
export const STEP_UP_TRIED = 'step_up_tried';

/** A validated authorization request (OpenID Connect Core §3.1.2.1 with PKCE, RFC 7636). */
export interface AuthorizationRequest {
  client: AppClient;
  /** As the client sent it: the token request must name it the same way (RFC 6749 §4.1.3). */
  redirectUri: string;
  /** The registered redirect URI as parsed: where the answer goes (decision 0935). */
  redirectTo: string;
  state: string | null;
  /** Space-separated, deduplicated, in the order asked; scopes this server does not know are left out (decision 0936). */
  scope: string;
  nonce: string | null;
  /** Null when the client may and did omit PKCE (decision 0930). */
  codeChallenge: string | null;
  prompt: ReadonlySet<Prompt>;
  maxAge: number | null;
  loginHint: string | null;
  /** An ID token the client holds for the person it expects (OpenID Connect Core §3.1.2.1), verified by the service. */
  idTokenHint: string | null;
  acrValues: string[];
  /** The session must have authenticated at or after this epoch millisecond (set after a forced re-authentication). */
  authAfter: number | null;
  stepUpTried: boolean;
  /** The parameters as received (single-valued), to send the browser back here after the hosted login. */
  params: Readonly<Record<string, string>>;
}

/** Where the request failed: before the redirect URI is trusted (an error page) or after (a redirect with the error). */
export type ParsedAuthorization =
  { ok: true; request: AuthorizationRequest } | { ok: false; page: string } | { ok: false; redirect: AuthorizeError };

export interface AuthorizeError {
  /** The parsed registered redirect URI the error is sent to. */
  redirectUri: string;
  state: string | null;
  error: AuthorizeErrorCode;
  description: string;
}

const LIMITS: Record<string, number> = {
  state: 1024,
  nonce: 512,
  login_hint: 254,
  acr_values: 512,
  scope: 512,
  redirect_uri: 2000,
  id_token_hint: 8192,
  code_challenge: 128,
  ui_locales: 64,
  claims_locales: 64,
  display: 16,
};
const MAX_PARAM = 2048;

/** The parameters, each one string; a repeated parameter makes the request invalid (RFC 6749 §3.1). */
export function singleValued(source: unknown): { params: Record<string, string>; repeated: string[] } {
  const params: Record<string, string> = {};
  const repeated: string[] = [];
  if (!source || typeof source !== 'object' || Array.isArray(source)) return { params, repeated };
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (typeof value === 'string') params[name] = value;
    else repeated.push(name);
  }
  return { params, repeated };
}

/**
 * Validates an authorization request in RFC 6749 §4.1.2.1's order: without a known client and a
 * registered redirect URI nothing is redirected (an error page); every later fault goes back to
 * the client's redirect URI with `error` and `state`.
 */
export function parseAuthorizationRequest(source: unknown, client: AppClient | null): ParsedAuthorization {
  const { params, repeated } = singleValued(source);
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) {
    return { ok: false, page: 'The request names more than one application or redirect URI.' };
  }
  if (!params.client_id) return { ok: false, page: 'The request does not say which application it comes from (client_id is missing).' };
  if (!client) return { ok: false, page: 'The application that sent you here is not registered with this service.' };
  const redirectUri = params.redirect_uri;
  if (!redirectUri) return { ok: false, page: 'The request does not say where to return to (redirect_uri is missing).' };
  const redirectTo = redirectUri.length > LIMITS.redirect_uri ? null : registeredRedirect(client.redirectUris, redirectUri);
  if (redirectTo === null) {
    return { ok: false, page: 'The address this request would return to is not registered for the application.' };
  }
  const state = typeof params.state === 'string' && params.state.length <= LIMITS.state ? params.state : null;
  const fail = (error: AuthorizeErrorCode, description: string): ParsedAuthorization => ({
    ok: false,
    redirect: { redirectUri: redirectTo, state, error, description },
  });

  if (repeated.length) return fail('invalid_request', `parameter ${repeated[0]} is repeated`);
  for (const [name, value] of Object.entries(params)) {
    if (value.length > (LIMITS[name] ?? MAX_PARAM)) return fail('invalid_request', `parameter ${name} is too long`);
  }
  if (params.request !== undefined) return fail('request_not_supported', 'request objects are not supported');
  if (params.request_uri !== undefined) return fail('request_uri_not_supported', 'request_uri is not supported');
  if (!params.response_type) return fail('invalid_request', 'response_type is required');
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
  if (params.response_mode !== undefined && params.response_mode !== 'query') {
    return fail('invalid_request', 'only response_mode=query is supported');
  }
  const withPkce = params.code_challenge !== undefined || params.code_challenge_method !== undefined;
  if (withPkce) {
    if (!params.code_challenge) return fail('invalid_request', 'code_challenge is required with code_challenge_method');
    if (params.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    if (!isS256Challenge(params.code_challenge)) return fail('invalid_request', 'code_challenge is not a base64url SHA-256');
  } else if (requiresPkce(client)) {
    return fail('invalid_request', 'code_challenge is required (PKCE, RFC 7636, S256)');
  } else if (!params.nonce) {
    // Without PKCE the nonce is what binds the code to this browser's request (RFC 9700 §2.1.1).
    return fail('invalid_request', 'nonce is required when the request carries no PKCE code_challenge');
  }

  // OpenID Connect Core §3.1.2.1: scope values the server does not understand SHOULD be ignored (decision 0936).
  const asked = [...new Set((params.scope ?? '').split(' ').filter(Boolean))];
  if (!asked.includes(OPENID)) return fail('invalid_scope', 'scope must include openid');
  const known = asked.filter((s) => (APPLICATION_SCOPES as readonly string[]).includes(s));

  const prompts = (params.prompt ?? '').split(' ').filter(Boolean);
  if (prompts.some((p) => !PROMPTS.includes(p as Prompt))) return fail('invalid_request', 'prompt has an unknown value');
  const prompt = new Set(prompts as Prompt[]);
  if (prompt.has('none') && prompt.size > 1) return fail('invalid_request', 'prompt=none cannot be combined with another value');

  let maxAge: number | null = null;
  if (params.max_age !== undefined) {
    if (!/^\d{1,9}$/.test(params.max_age)) return fail('invalid_request', 'max_age must be a non-negative integer');
    maxAge = Number(params.max_age);
  }
  let authAfter: number | null = null;
  if (params[AUTH_AFTER] !== undefined) {
    if (!/^\d{1,15}$/.test(params[AUTH_AFTER])) return fail('invalid_request', `${AUTH_AFTER} is malformed`);
    authAfter = Number(params[AUTH_AFTER]);
  }
  return {
    ok: true,
    request: {
      client,
      redirectUri,
      redirectTo,
      state,
      scope: known.join(' '),
      nonce: params.nonce ?? null,
      codeChallenge: withPkce ? params.code_challenge : null,
      prompt,
      maxAge,
      loginHint: params.login_hint ?? null,
      idTokenHint: params.id_token_hint || null,
      acrValues: (params.acr_values ?? '').split(' ').filter(Boolean),
      authAfter,
      stepUpTried: params[STEP_UP_TRIED] === '1',
      params,
    },
  };
}

/** A public client always proves the code with PKCE; a confidential one unless its registration says otherwise (decision 0930). */
export function requiresPkce(client: AppClient): boolean {
  return client.clientType === 'public' || client.requirePkce;
}

/** The redirect URI with the response parameters added to its query (RFC 6749 §4.1.2: the query it has is kept). */
export function responseLocation(redirectUri: string, values: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== null) url.searchParams.append(name, value);
  return url.toString();
}
