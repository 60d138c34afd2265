import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { generateDevKeyPair } from '../../src/saml/idp/dev-keypair';
import { ApiClient } from '../lib/api-client';
import { createDeveloper, createWorkspace } from '../lib/service';

/** Everything the soak mix needs, created through the API (and SQL only where noted). */
export interface SoakTenant {
  workspaceId: string;
  developerHeaders: Record<string, string>;
  scimHeaders: Record<string, string>;
  /** SCIM users to read (get by id, filter by userName) and to patch. */
  scimUsers: { id: string; userName: string }[];
  clientId: string;
  /** End users with verified emails, for password sign-ins. */
  endUsers: { email: string; password: string }[];
  sp: { entityId: string; acsUrl: string };
  /** Cookie header of a browser signed in on the hosted login page (a browser session). */
  browserCookie: string;
}

export interface TenantOptions {
  scimUsers: number;
  endUsers: number;
}

/** IdP variables for the service: a throwaway signing pair; the public URLs are names only (as behind a proxy). */
export function samlIdpEnv(): Record<string, string> {
  const pair = generateDevKeyPair('soak idp');
  return {
    SAML_IDP_ENTITY_ID: 'https://idp.soak.test/saml/metadata/',
    SAML_IDP_SSO_URL: 'https://idp.soak.test/saml/sso/',
    SAML_IDP_CERT_PEM: pair.certPem,
    SAML_IDP_KEY_PEM: pair.keyPem,
    SAML_NAMEID_SECRET: randomBytes(32).toString('base64url'),
  };
}

/**
 * A developer, workspace, OAuth client, SCIM token and users, a registered SAML SP, and a
 * signed-in browser. `db` is a superuser pool on the service's database: it marks the
 * registered end users' emails verified (the emailed-code round trip is tested elsewhere).
 */
export async function prepareSoakTenant(baseUrl: string, db: Pool, opts: TenantOptions): Promise<SoakTenant> {
  const api = new ApiClient(baseUrl);
  const dev = await createDeveloper(api);
  const ws = await createWorkspace(api, dev, 'soak');
  const client = await api.post<{ client_id: string }>('/developer/oauth/clients/', {
    headers: dev.authHeaders,
    body: { workspace_id: ws.id, name: 'Soak App', redirect_uris: ['https://app.soak.test/callback'] },
  });
  const token = await api.post<{ token: string }>('/developer/scim/tokens/', {
    headers: dev.authHeaders,
    body: { workspace_id: ws.id, label: 'soak' },
  });
  const scimHeaders = { authorization: `Bearer ${token.body.token}`, 'content-type': 'application/scim+json' };
  const scimUsers: SoakTenant['scimUsers'] = [];
  for (let i = 0; i < opts.scimUsers; i++) {
    const userName = `scim.${i}.${randomBytes(4).toString('hex')}@soak.test`;
    const res = await api.post<{ id: string }>('/scim/v2/Users', { headers: scimHeaders, body: scimUserBody(userName) });
    scimUsers.push({ id: res.body.id, userName });
  }
  const endUsers: SoakTenant['endUsers'] = [];
  for (let i = 0; i < opts.endUsers; i++) {
    const user = { email: `end.${i}.${randomBytes(4).toString('hex')}@soak.test`, password: `pw-${randomBytes(12).toString('hex')}` };
    await api.post('/e/v1/auth/register/', { body: { client_id: client.body.client_id, ...user, first_name: 'Soak' } });
    endUsers.push(user);
  }
  await db.query(`UPDATE end_users SET email_verified = true WHERE workspace_id = $1 AND email = ANY($2)`, [
    ws.id,
    endUsers.map((u) => u.email),
  ]);
  const sp = { entityId: `https://sp-${randomBytes(4).toString('hex')}.soak.test/metadata`, acsUrl: 'https://sp.soak.test/saml/acs' };
  await api.post('/developer/saml/sps/', {
    headers: dev.authHeaders,
    body: { workspace_id: ws.id, name: 'Soak SP', sp_entity_id: sp.entityId, acs_url: sp.acsUrl, attribute_mapping: { email: 'email' } },
  });
  const browserCookie = await signInBrowser(baseUrl, ws.id, endUsers[0]);
  return {
    workspaceId: ws.id,
    developerHeaders: dev.authHeaders,
    scimHeaders,
    scimUsers,
    clientId: client.body.client_id,
    endUsers,
    sp,
    browserCookie,
  };
}

export function scimUserBody(userName: string): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    name: { givenName: 'Soak', familyName: 'User' },
    emails: [{ primary: true, type: 'work', value: userName }],
    active: true,
  };
}

/** The hosted login page as a browser uses it: GET the form (CSRF cookie + field), POST it, keep the session cookie. */
async function signInBrowser(baseUrl: string, workspaceId: string, user: { email: string; password: string }): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => res.headers.getSetCookie().forEach((c) => jar.set(c.split('=')[0], c.split(';')[0]));
  const cookie = () => [...jar.values()].join('; ');
  const next = '/saml/sso/finish/';
  const form = await fetch(`${baseUrl}/auth/login/?workspace_id=${workspaceId}&next=${encodeURIComponent(next)}`);
  keep(form);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!form.ok || !csrf) throw new Error(`no login form (${form.status})`);
  const res = await fetch(`${baseUrl}/auth/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    body: new URLSearchParams({ csrf_token: csrf, workspace_id: workspaceId, next, email: user.email, password: user.password }).toString(),
  });
  keep(res);
  const text = await res.text();
  if (res.status !== 303) throw new Error(`hosted sign-in answered ${res.status}: ${text.slice(0, 300)}`);
  return cookie();
}
