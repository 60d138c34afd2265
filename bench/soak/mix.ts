import { randomBytes, randomUUID } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { scimUserBody, SoakTenant } from './tenant';

/** One request of the mix, ready to send. */
export interface SoakRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface SoakKind {
  name: string;
  /** Share of the steady rate, relative to the other kinds' weights. */
  weight: number;
  /** The n-th request of this kind (n cycles through the tenant's users). */
  build(t: SoakTenant, n: number): SoakRequest;
  /** Whether the answer is what a client expects; anything else is an error of the soak. */
  ok(status: number, body: string): boolean;
}

const success = (status: number) => status >= 200 && status < 400;
const pick = <T>(list: T[], n: number): T => list[n % list.length];

/**
 * The mix: SCIM reads and writes as an IdP's sync sends them, API sign-ins (argon2id),
 * SSO for a browser that is already signed in (parse, sign, render), and developers
 * paging the audit log. Weights keep argon2 sign-ins a small share, as in production.
 */
export const SOAK_MIX: SoakKind[] = [
  {
    name: 'scim-get',
    weight: 25,
    build: (t, n) => ({ method: 'GET', path: `/scim/v2/Users/${pick(t.scimUsers, n).id}`, headers: t.scimHeaders }),
    ok: (s) => s === 200,
  },
  {
    name: 'scim-filter',
    weight: 20,
    build: (t, n) => ({
      method: 'GET',
      path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${pick(t.scimUsers, n).userName}"`)}`,
      headers: t.scimHeaders,
    }),
    ok: (s, body) => s === 200 && body.includes('"totalResults":1'),
  },
  {
    name: 'scim-create',
    weight: 10,
    build: (t) => ({
      method: 'POST',
      path: '/scim/v2/Users',
      headers: t.scimHeaders,
      body: JSON.stringify(scimUserBody(`new.${randomBytes(8).toString('hex')}@soak.test`)),
    }),
    ok: (s) => s === 201,
  },
  {
    name: 'scim-patch',
    weight: 10,
    build: (t, n) => ({
      method: 'PATCH',
      path: `/scim/v2/Users/${pick(t.scimUsers, n).id}`,
      headers: t.scimHeaders,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'name.givenName', value: `Soak ${n}` }],
      }),
    }),
    ok: (s) => s === 200 || s === 204,
  },
  {
    name: 'sign-in',
    weight: 5,
    build: (t, n) => {
      const u = pick(t.endUsers, n);
      return {
        method: 'POST',
        path: '/e/v1/auth/login/',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: t.clientId, email: u.email, password: u.password }),
      };
    },
    ok: (s, body) => s === 200 && body.includes('"access_token"'),
  },
  {
    name: 'sso',
    weight: 10,
    build: (t) => ({ method: 'GET', path: `/saml/sso/?SAMLRequest=${authnRequest(t)}`, headers: { cookie: t.browserCookie } }),
    // Signed in already: the auto-submit page with the signed Response, not a detour to the login page.
    ok: (s, body) => s === 200 && body.includes('name="SAMLResponse"'),
  },
  {
    name: 'audit-list',
    weight: 20,
    build: (t) => ({ method: 'GET', path: `/developer/audit/?workspace_id=${t.workspaceId}`, headers: t.developerHeaders }),
    ok: success,
  },
];

/** A fresh HTTP-Redirect-binding AuthnRequest from the tenant's SP (new ID each time, as an SP sends). */
function authnRequest(t: SoakTenant): string {
  const xml =
    '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
    `ID="_${randomUUID().replace(/-/g, '')}" Version="2.0" IssueInstant="${new Date().toISOString()}" ` +
    `AssertionConsumerServiceURL="${t.sp.acsUrl}"><saml:Issuer>${t.sp.entityId}</saml:Issuer></samlp:AuthnRequest>`;
  return encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'));
}

/** Kinds in a smooth weighted round-robin order, so every window sees the same mix. */
export function schedule(mix: SoakKind[]): SoakKind[] {
  const total = mix.reduce((a, k) => a + k.weight, 0);
  const current = mix.map(() => 0);
  const order: SoakKind[] = [];
  for (let i = 0; i < total; i++) {
    mix.forEach((k, j) => (current[j] += k.weight));
    const best = current.indexOf(Math.max(...current));
    current[best] -= total;
    order.push(mix[best]);
  }
  return order;
}
