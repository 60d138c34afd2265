import { randomBytes } from 'node:crypto';
import type { TestApp } from '../../support/app';
import { anApplication, type TestApplication } from '../../oidc/support';
import { aScimToken, scimClient, userBody } from '../../scim/scim-support';
import type { TestDeveloper, TestWorkspace } from '../../support/factories';

/** A workspace with an application, a SCIM token and an OIDC connection to `issuer`. */
export interface OidcTenant {
  dev: TestDeveloper;
  ws: TestWorkspace;
  app: TestApplication;
  scim: ReturnType<typeof scimClient>;
  connectionId: string;
  redirectUri: string;
  clientId: string;
  clientSecret: string;
}

export async function anOidcTenant(
  t: TestApp,
  issuer: string,
  settings: { jit?: boolean; trust_upstream_mfa?: boolean } = {},
  tenant?: Pick<OidcTenant, 'dev' | 'ws' | 'app' | 'scim'>,
): Promise<OidcTenant> {
  const base = tenant ?? (await newTenant(t));
  const clientId = `idsvc-${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const res = await t
    .http()
    .post('/developer/external-providers/')
    .set(base.dev.auth)
    .send({
      workspace_id: base.ws.id,
      name: 'Acme IdP',
      protocol: 'oidc',
      oidc: { issuer, client_id: clientId, client_secret: clientSecret, scopes: ['email', 'profile'] },
      ...settings,
    });
  if (res.status !== 201) throw new Error(`connection create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...base, connectionId: res.body.id as string, redirectUri: res.body.redirect_uri as string, clientId, clientSecret };
}

async function newTenant(t: TestApp) {
  const { dev, ws, app } = await anApplication(t);
  const { token } = await aScimToken(t, dev, ws);
  return { dev, ws, app, scim: scimClient(t, token) };
}

/** Provisions a person over SCIM (as Okta or Entra would); answers the SCIM id. */
export async function provision(tenant: Pick<OidcTenant, 'scim'>, email: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await tenant.scim.post('/Users', userBody(email, extra));
  if (res.status !== 201) throw new Error(`SCIM create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export async function setActive(tenant: Pick<OidcTenant, 'scim'>, scimId: string, active: boolean): Promise<void> {
  const res = await tenant.scim.patch(`/Users/${scimId}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', path: 'active', value: active }],
  });
  if (res.status !== 200) throw new Error(`SCIM patch failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The workspace's accounts with this email, whatever created them (SCIM or just-in-time). */
export async function accountsWithEmail(t: TestApp, workspaceId: string, email: string): Promise<string[]> {
  const rows = await t.dataSource.query<{ id: string }[]>('SELECT id FROM end_users WHERE workspace_id = $1 AND lower(email) = lower($2)', [
    workspaceId,
    email,
  ]);
  return rows.map((r) => r.id);
}

export async function auditRows(t: TestApp, tenant: Pick<OidcTenant, 'dev' | 'ws'>, eventType: string) {
  const res = await t.http().get('/developer/audit/').query({ workspace_id: tenant.ws.id, event_type: eventType }).set(tenant.dev.auth);
  if (res.status !== 200) throw new Error(`audit read failed: ${res.status}`);
  return res.body.results as { metadata: Record<string, unknown>; actor?: { id?: string | null }; target?: { id?: string } }[];
}

export async function attempts(t: TestApp, tenant: Pick<OidcTenant, 'dev' | 'connectionId'>) {
  const res = await t.http().get(`/developer/external-providers/${tenant.connectionId}/attempts/`).set(tenant.dev.auth);
  if (res.status !== 200) throw new Error(`attempts read failed: ${res.status}`);
  return res.body.results as { outcome: string; reason?: string; subject?: string; email?: string }[];
}
