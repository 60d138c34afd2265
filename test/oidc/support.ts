import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';
import type { TestEndUser } from '../end-users/support';

export const REDIRECT_URI = 'https://app.example.test/callback';

export interface TestApplication {
  id: string;
  client_id: string;
  client_secret: string | null;
  workspace_id: string;
  name: string;
  redirect_uris: string[];
}

export interface AppTenant {
  dev: TestDeveloper;
  ws: TestWorkspace;
  app: TestApplication;
}

/** A developer, a workspace and an application registered with the OpenID settings given. */
export async function anApplication(
  t: TestApp,
  settings: Record<string, unknown> = {},
  tenant?: { dev: TestDeveloper; ws: TestWorkspace },
): Promise<AppTenant> {
  const dev = tenant?.dev ?? (await aDeveloper(t));
  const ws = tenant?.ws ?? (await aWorkspace(t, dev));
  const res = await t
    .http()
    .post('/developer/oauth/clients/')
    .set(dev.auth)
    .send({ workspace_id: ws.id, name: 'Acme Notes', redirect_uris: [REDIRECT_URI], ...settings });
  if (res.status !== 201) throw new Error(`client create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { dev, ws, app: res.body as TestApplication };
}

export type Agent = ReturnType<typeof request.agent>;

const csrfFrom = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];

/** A browser (cookie jar) signed in on the hosted login as `user`, through the form. */
export async function aSignedInBrowser(t: TestApp, user: TestEndUser, agent: Agent = request.agent(t.app.getHttpServer())): Promise<Agent> {
  await signInOn(agent, user, `client_id=${user.clientId}`);
  return agent;
}

/** Opens the hosted login with `query` and posts the password; answers the form post's response. */
export async function signInOn(agent: Agent, user: TestEndUser, query: string) {
  const form = await agent.get(`/auth/login/?${query}`).expect(200);
  const fields = Object.fromEntries(new URLSearchParams(query));
  const res = await agent
    .post('/auth/login/')
    .type('form')
    .send({ ...fields, csrf_token: csrfFrom(form.text), email: user.email, password: user.password });
  if (res.status !== 303) throw new Error(`hosted sign-in failed: ${res.status}`);
  return res;
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function aPkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorization request's query, with PKCE and the usual parameters unless overridden (null drops one). */
export function authorizeQuery(app: TestApplication, pkce: Pkce, overrides: Record<string, string | null> = {}): string {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: app.client_id,
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null) q.set(name, value);
  return q.toString();
}

/** The query parameters of a redirect Location. */
export function redirectParams(location: string): URLSearchParams {
  return new URL(location, 'http://service.invalid').searchParams;
}

/** Follows the authorization request in a signed-in browser to its code. */
export async function aCode(
  agent: Agent,
  app: TestApplication,
  pkce: Pkce,
  overrides: Record<string, string | null> = {},
): Promise<string> {
  const res = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, overrides)}`);
  if (res.status !== 302 || !res.headers.location.startsWith(REDIRECT_URI)) {
    throw new Error(`authorize did not answer a code: ${res.status} ${res.headers.location}`);
  }
  const code = redirectParams(res.headers.location).get('code');
  if (!code) throw new Error(`no code in ${res.headers.location}`);
  return code;
}

export const basic = (app: TestApplication) => ({
  Authorization: `Basic ${Buffer.from(`${encodeURIComponent(app.client_id)}:${encodeURIComponent(app.client_secret ?? '')}`).toString('base64')}`,
});

/** POST /oauth/token with a form and optional headers. */
export function tokenRequest(t: TestApp, form: Record<string, string>, headers: Record<string, string> = {}) {
  return t.http().post('/oauth/token').set(headers).type('form').send(form);
}

export function exchange(t: TestApp, app: TestApplication, code: string, pkce: Pkce) {
  return tokenRequest(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier }, basic(app));
}

/** An ID token verified against the published JWKS, as a relying party would. */
export async function verifiedIdToken(t: TestApp, idToken: string, app: TestApplication): Promise<JWTPayload> {
  const jwks = (await t.http().get('/oauth/jwks').expect(200)).body as { keys: never[] };
  const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), { issuer: t.config.PUBLIC_BASE_URL, audience: app.client_id });
  return payload;
}
