import { randomUUID } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { TestApp } from '../../support/app';
import type { TestDeveloper, TestWorkspace } from '../../support/factories';
import { nodeSamlSp, TestSp } from './saml-verifiers';
import { samlEnv, testIdpKeyPair } from './saml-env';

export const IDP_SSO_URL = samlEnv().SAML_IDP_SSO_URL;

export interface RegisteredSp extends TestSp {
  id: string;
}

/** Registers an SP through the API and builds the node-saml SP that talks to it. */
export async function aRegisteredSp(
  t: TestApp,
  dev: TestDeveloper,
  ws: TestWorkspace,
  body: Record<string, unknown> = {},
  acsBase = 'https://sp.example.test',
): Promise<RegisteredSp> {
  const entityId = `https://sp-${randomUUID().slice(0, 8)}.example.test/metadata`;
  const acsUrl = (body.acs_url as string | undefined) ?? `${acsBase}/saml/acs/${randomUUID().slice(0, 6)}`;
  const res = await t
    .http()
    .post('/developer/saml/sps/')
    .set(dev.auth)
    .send({
      workspace_id: ws.id,
      name: 'Test SP',
      sp_entity_id: entityId,
      acs_url: acsUrl,
      attribute_mapping: { email: 'email', firstName: 'first_name', lastName: 'last_name', displayName: 'display_name', uid: 'id' },
      ...body,
    });
  if (res.status !== 201) throw new Error(`SP create failed: ${res.status} ${JSON.stringify(res.body)}`);
  const sp = nodeSamlSp({
    entityId,
    acsUrl,
    idpSsoUrl: IDP_SSO_URL,
    idpCert: testIdpKeyPair().certPem,
    signedAssertion: res.body.sign_assertions,
    // Configured as its registration says: node-saml would otherwise ask for emailAddress (NameIDPolicy).
    extra: { identifierFormat: res.body.name_id_format as string },
  });
  return { ...sp, id: res.body.id as string };
}

/**
 * The SP's redirect URL, aimed at the test app: the IdP's public SSO URL
 * (in Destination) differs from the loopback address it listens on, as behind a proxy.
 */
export async function authorizePath(
  sp: TestSp,
  relayState = '',
  options: { forceAuthn?: boolean; passive?: boolean } = {},
): Promise<{ path: string; requestId: string }> {
  // Same SP (same request-id cache), with the flags for this one request.
  const saml =
    options.forceAuthn || options.passive
      ? nodeSamlSp({
          entityId: sp.entityId,
          acsUrl: sp.acsUrl,
          idpSsoUrl: IDP_SSO_URL,
          idpCert: testIdpKeyPair().certPem,
          extra: {
            forceAuthn: options.forceAuthn,
            passive: options.passive,
            cacheProvider: sp.cache,
            identifierFormat: sp.saml.options.identifierFormat,
          },
        })
      : sp;
  const url = new URL(await saml.saml.getAuthorizeUrlAsync(relayState, undefined, {}));
  const requestId = [...sp.cache.ids.keys()].pop() ?? '';
  return { path: `${url.pathname}${url.search}`, requestId };
}

/** A hand-made AuthnRequest, for payloads no real SP would send. */
export function craftedRequest(
  issuer: string,
  extra: { acsUrl?: string; body?: string; prefix?: string; attrs?: string; id?: string; issueInstant?: string } = {},
): string {
  const xml =
    `${extra.prefix ?? ''}<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${extra.id ?? `_${randomUUID().replace(/-/g, '')}`}" Version="2.0" IssueInstant="${extra.issueInstant ?? new Date().toISOString()}"` +
    `${extra.acsUrl ? ` AssertionConsumerServiceURL="${extra.acsUrl}"` : ''}${extra.attrs ?? ''}>` +
    `${extra.body ?? `<saml:Issuer>${issuer}</saml:Issuer>`}</samlp:AuthnRequest>`;
  return `/saml/sso/?SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
}

/**
 * A hand-made request from a registered SP whose id the SP's node-saml cache knows, so node-saml
 * checks InResponseTo on the answer as it would for a request it sent. `inner` goes after the Issuer.
 */
export function spRequest(sp: TestSp, inner = '', attrs = ''): string {
  const id = `_${randomUUID().replace(/-/g, '')}`;
  sp.cache.ids.set(id, new Date().toISOString());
  return craftedRequest(sp.entityId, { id, attrs, body: `<saml:Issuer>${sp.entityId}</saml:Issuer>${inner}` });
}

/** Fields of the auto-submit form (HTML-unescaped). */
export function formFields(html: string): { action: string; SAMLResponse: string; RelayState?: string } {
  const unescape = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  const response = /name="SAMLResponse" value="([^"]*)"/.exec(html)?.[1];
  const relay = /name="RelayState" value="([^"]*)"/.exec(html)?.[1];
  if (!action || !response) throw new Error(`no SAML form in page: ${html.slice(0, 300)}`);
  return { action: unescape(action), SAMLResponse: unescape(response), RelayState: relay === undefined ? undefined : unescape(relay) };
}

export interface AuditRow {
  event_type: string;
  severity: string;
  actor_type: string;
  actor_id: string | null;
  target_id: string | null;
  metadata: Record<string, unknown>;
}

export async function auditEvents(t: TestApp, dev: TestDeveloper, ws: TestWorkspace, eventType: string): Promise<AuditRow[]> {
  const res = await t.http().get(`/developer/audit/?workspace_id=${ws.id}&event_type=${eventType}`).set(dev.auth).expect(200);
  return (res.body as { results: AuditRow[] }).results;
}
