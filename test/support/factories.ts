import { randomUUID } from 'node:crypto';
import type { TestApp } from './app';

export interface TestDeveloper {
  id: string;
  email: string;
  password: string;
  /** dat_… bearer token */
  token: string;
  auth: { Authorization: string };
}

export interface TestWorkspace {
  id: string;
  name: string;
}

export interface TestOAuthClient {
  id: string;
  client_id: string;
  client_secret: string;
  workspace_id: string;
  name: string;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 12)}@example.test`;

/** A developer with a fresh bearer token (signup + login + token mint, through the real API). */
export async function aDeveloper(t: TestApp, overrides: { email?: string; password?: string; name?: string } = {}): Promise<TestDeveloper> {
  const email = overrides.email ?? uniqueEmail('dev');
  const password = overrides.password ?? `pw-${randomUUID()}`;
  const signup = await t
    .http()
    .post('/developer/auth/signup/')
    .send({ email, password, name: overrides.name ?? 'Dev Eloper' });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const login = await t.http().post('/developer/auth/login/').send({ email, password });
  const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
  const csrf = login.body.csrf_token as string;
  const minted = await t
    .http()
    .post('/developer/tokens/')
    .set('Cookie', cookies.map((c) => c.split(';')[0]).join('; '))
    .set('X-CSRF-Token', csrf)
    .send({ label: 'tests' });
  if (minted.status !== 201) throw new Error(`token mint failed: ${minted.status} ${JSON.stringify(minted.body)}`);
  const token = minted.body.token as string;
  return { id: signup.body.id as string, email, password, token, auth: { Authorization: `Bearer ${token}` } };
}

export async function aWorkspace(t: TestApp, dev: TestDeveloper, name = `ws-${randomUUID().slice(0, 8)}`): Promise<TestWorkspace> {
  const res = await t.http().post('/e/v1/developer/workspaces/').set(dev.auth).send({ name });
  if (res.status !== 201) throw new Error(`workspace create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as TestWorkspace;
}

export async function anOAuthClient(t: TestApp, dev: TestDeveloper, ws: TestWorkspace, name = 'Test App'): Promise<TestOAuthClient> {
  const res = await t
    .http()
    .post('/developer/oauth/clients/')
    .set(dev.auth)
    .send({ workspace_id: ws.id, name, redirect_uris: ['https://app.example.test/callback'] });
  if (res.status !== 201) throw new Error(`client create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as TestOAuthClient;
}
