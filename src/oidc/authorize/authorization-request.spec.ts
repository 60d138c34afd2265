import type { AppClient } from '../oidc.repository';
import { parseAuthorizationRequest, responseLocation } from './authorization-request';

const client: AppClient = {
  id: '00000000-0000-4000-8000-000000000001',
  clientId: 'cli_abc',
  workspaceId: '00000000-0000-4000-8000-000000000002',
  name: 'Acme',
  secretHash: 'x',
  redirectUris: ['https://app.example.test/cb'],
  postLogoutRedirectUris: [],
  clientType: 'confidential',
  firstParty: true,
  subjectType: 'public',
  pairwiseSalt: 'salt',
  idTokenAlg: 'RS256',
  jwks: null,
  requirePkce: true,
};

const valid = {
  response_type: 'code',
  client_id: 'cli_abc',
  redirect_uri: 'https://app.example.test/cb',
  scope: 'openid email',
  state: 'st',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
};

describe('parseAuthorizationRequest', () => {
  it('accepts a complete request and keeps what it needs', () => {
    const parsed = parseAuthorizationRequest({ ...valid, prompt: 'login', max_age: '300', nonce: 'n' }, client);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.request).toEqual(
      expect.objectContaining({ scope: 'openid email', state: 'st', nonce: 'n', maxAge: 300, prompt: new Set(['login']) }),
    );
  });

  it('shows a page (never redirects) for an unknown client or an unregistered redirect URI', () => {
    expect(parseAuthorizationRequest(valid, null)).toEqual({ ok: false, page: expect.any(String) });
    expect(parseAuthorizationRequest({ ...valid, redirect_uri: 'https://evil.test/cb' }, client)).toEqual({
      ok: false,
      page: expect.any(String),
    });
    expect(parseAuthorizationRequest({ ...valid, redirect_uri: ['https://app.example.test/cb', 'x'] }, client)).toEqual({
      ok: false,
      page: expect.any(String),
    });
  });

  it.each([
    [{ code_challenge: undefined }, 'invalid_request'],
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ response_type: undefined }, 'invalid_request'],
    [{ scope: 'email' }, 'invalid_scope'],
    [{ prompt: 'none login' }, 'invalid_request'],
    [{ prompt: 'sometimes' }, 'invalid_request'],
    [{ max_age: '-1' }, 'invalid_request'],
    [{ request: 'eyJ...' }, 'request_not_supported'],
    [{ state: ['a', 'b'] }, 'invalid_request'],
    [{ nonce: 'n'.repeat(600) }, 'invalid_request'],
  ])('redirects %p with %s and the state', (change, error) => {
    const parsed = parseAuthorizationRequest({ ...valid, ...change }, client);
    expect(parsed).toEqual({
      ok: false,
      redirect: {
        redirectUri: valid.redirect_uri,
        state: 'state' in change ? null : 'st',
        error,
        description: expect.any(String),
      },
    });
  });

  it('leaves out scopes it does not know instead of refusing them (OpenID Connect Core §3.1.2.1)', () => {
    const parsed = parseAuthorizationRequest({ ...valid, scope: 'openid admin email address' }, client);
    expect(parsed.ok && parsed.request.scope).toBe('openid email');
  });

  it('takes a request without PKCE only from a confidential client that allows it, and then only with a nonce', () => {
    const { code_challenge: _c, code_challenge_method: _m, ...bare } = valid;
    const error = (parsed: ReturnType<typeof parseAuthorizationRequest>) =>
      !parsed.ok && 'redirect' in parsed ? parsed.redirect.error : null;
    expect(error(parseAuthorizationRequest({ ...bare, nonce: 'n' }, client))).toBe('invalid_request');
    const relaxed = { ...client, requirePkce: false };
    expect(error(parseAuthorizationRequest(bare, relaxed))).toBe('invalid_request');
    const parsed = parseAuthorizationRequest({ ...bare, nonce: 'n' }, relaxed);
    expect(parsed.ok && parsed.request.codeChallenge).toBeNull();
    expect(error(parseAuthorizationRequest({ ...bare, nonce: 'n' }, { ...relaxed, clientType: 'public' }))).toBe('invalid_request');
  });

  it('adds response parameters to the redirect URI and keeps its own query', () => {
    expect(responseLocation('https://app.example.test/cb?tenant=a', { code: 'c', state: null, iss: 'https://id.test' })).toBe(
      'https://app.example.test/cb?tenant=a&code=c&iss=https%3A%2F%2Fid.test',
    );
  });
});
