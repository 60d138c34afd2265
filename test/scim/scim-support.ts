import { randomUUID } from 'node:crypto';
import type { TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';

export const SCIM_JSON = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The fields tests read from a created User or Group. */
export interface ScimResource {
  id: string;
  userName: string;
  displayName: string;
  members: { value: string; display?: string }[];
  [key: string]: unknown;
}

export interface ScimTenant {
  dev: TestDeveloper;
  ws: TestWorkspace;
  token: string;
  tokenId: string;
  /** Supertest calls with the SCIM bearer token and media type set. */
  get(path: string): ReturnType<ReturnType<TestApp['http']>['get']>;
  post(path: string, body: unknown): ReturnType<ReturnType<TestApp['http']>['post']>;
  put(path: string, body: unknown): ReturnType<ReturnType<TestApp['http']>['put']>;
  patch(path: string, body: unknown): ReturnType<ReturnType<TestApp['http']>['patch']>;
  delete(path: string): ReturnType<ReturnType<TestApp['http']>['delete']>;
}

/** Mints a SCIM token through the developer API and returns a client bound to it. */
export async function aScimToken(t: TestApp, dev: TestDeveloper, ws: TestWorkspace, label = 'idp'): Promise<{ id: string; token: string }> {
  const res = await t.http().post('/developer/scim/tokens/').set(dev.auth).send({ workspace_id: ws.id, label });
  if (res.status !== 201) throw new Error(`scim token mint failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as string, token: res.body.token as string };
}

export function scimClient(t: TestApp, token: string) {
  const auth = { Authorization: `Bearer ${token}` };
  const base = '/scim/v2';
  return {
    get: (path: string) =>
      t
        .http()
        .get(base + path)
        .set(auth)
        .set('Accept', SCIM_JSON),
    post: (path: string, body: unknown) =>
      t
        .http()
        .post(base + path)
        .set(auth)
        .set('Content-Type', SCIM_JSON)
        .send(JSON.stringify(body)),
    put: (path: string, body: unknown) =>
      t
        .http()
        .put(base + path)
        .set(auth)
        .set('Content-Type', SCIM_JSON)
        .send(JSON.stringify(body)),
    patch: (path: string, body: unknown) =>
      t
        .http()
        .patch(base + path)
        .set(auth)
        .set('Content-Type', SCIM_JSON)
        .send(JSON.stringify(body)),
    delete: (path: string) =>
      t
        .http()
        .delete(base + path)
        .set(auth),
  };
}

/** A developer, a workspace of their own and a SCIM token for it. */
export async function aScimTenant(t: TestApp): Promise<ScimTenant> {
  const dev = await aDeveloper(t);
  const ws = await aWorkspace(t, dev);
  const { id, token } = await aScimToken(t, dev, ws);
  return { dev, ws, token, tokenId: id, ...scimClient(t, token) };
}

export const aUserName = (label = 'user') => `${label}.${randomUUID().slice(0, 8)}@example.com`;

export function userBody(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA],
    userName,
    name: { givenName: 'Test', familyName: 'User' },
    emails: [{ primary: true, value: userName, type: 'work' }],
    active: true,
    ...extra,
  };
}

export async function aScimUser(tenant: ScimTenant, userName = aUserName()): Promise<ScimResource> {
  const res = await tenant.post('/Users', userBody(userName));
  if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ScimResource;
}

export async function aScimGroup(
  tenant: ScimTenant,
  displayName = `group-${randomUUID().slice(0, 8)}`,
  members: string[] = [],
): Promise<ScimResource> {
  const res = await tenant.post('/Groups', { schemas: [GROUP_SCHEMA], displayName, members: members.map((value) => ({ value })) });
  if (res.status !== 201) throw new Error(`group create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ScimResource;
}
