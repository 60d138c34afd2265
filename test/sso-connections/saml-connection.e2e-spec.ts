import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { SAML_ACS_FORM_LIMIT_BYTES } from '../../src/common/http-pipeline';
import { REDIRECT_URI, anApplication } from '../oidc/support';
import { aRegisteredSp, RegisteredSp } from '../saml/support/saml-sso.helpers';
import { samlEnv } from '../saml/support/saml-env';
import { aScimToken, scimClient, USER_SCHEMA, PATCH_OP } from '../scim/scim-support';
import { createTestApp, TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { startSpServer, type SpServer } from '../support/saml-sp-server';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace, uniqueEmail } from '../support/factories';
import {
  authnRequestIdOf,
  base64,
  idpKeys,
  serveSamlIdp,
  ServedSamlIdp,
  UpstreamSamlIdp,
  UpstreamPerson,
} from './support/upstream-saml-idp';

interface Connection {
  id: string;
  sp_entity_id: string;
  acs_url: string;
  sp_metadata_url: string;
}

/**
 * A SAML 2.0 enterprise connection end to end: a samlify IdP holding its own key pair (served on
 * "localhost", another site than the service, so its answer is a genuine cross-site form post),
 * Chromium, a person provisioned over SCIM, and the apps the person reaches afterwards through our
 * own SAML IdP (a node-saml SP) and OpenID provider (openid-client). Every refused answer is a
 * typed 4xx page, a login_failure audit row and an attempt.
 */
describe('SSO connections: SAML sign-in end to end', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  let scim: ReturnType<typeof scimClient>;
  let served: ServedSamlIdp & { idp: UpstreamSamlIdp };
  let connection: Connection;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp(samlEnv());
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
    scim = scimClient(t, (await aScimToken(t, dev, ws)).token);
    served = await serveSamlIdp(
      (ssoUrl) => new UpstreamSamlIdp(undefined, ssoUrl),
      () => ({ entityId: connection.sp_entity_id, acsUrl: connection.acs_url }),
    );
    connection = await aConnection(served.idp);
  });
  afterAll(async () => {
    await served?.close();
    await t.close();
  });
  withChromium((started) => (browser = started));

  async function aConnection(idp: UpstreamSamlIdp, saml: Record<string, unknown> = {}, workspace = ws): Promise<Connection> {
    const res = await t
      .http()
      .post('/developer/external-providers/')
      .set(dev.auth)
      .send({
        workspace_id: workspace.id,
        name: 'Acme IdP',
        protocol: 'saml',
        saml: { idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificates: [idp.keys.certPem], ...saml },
      });
    if (res.status !== 201) throw new Error(`connection create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Connection;
  }

  /** A person the company's IdP provisioned over SCIM (userName and work email the same address). */
  async function aProvisionedPerson(label: string): Promise<{ id: string; email: string; upstream: UpstreamPerson }> {
    const email = uniqueEmail(label);
    const res = await scim
      .post('/Users', {
        schemas: [USER_SCHEMA],
        userName: email,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: email, type: 'work', primary: true }],
        active: true,
      })
      .expect(201);
    return { id: res.body.id as string, email, upstream: { subject: `okta-${res.body.id as string}`, email, firstName: 'Ada' } };
  }

  const attempts = async (id = connection.id) =>
    (await t.http().get(`/developer/external-providers/${id}/attempts/`).set(dev.auth).expect(200)).body.results as {
      outcome: string;
      reason?: string;
      subject?: string;
      email?: string;
    }[];
  const audit = async (eventType: string) =>
    (await t.http().get('/developer/audit/').query({ workspace_id: ws.id, event_type: eventType }).set(dev.auth).expect(200)).body
      .results as { actor_id: string | null; metadata: { reason?: string; provider_id?: string } }[];

  /** A sign-in started over HTTP: the pending-request cookie and the AuthnRequest ID the answer must carry. */
  async function started(conn: Connection = connection, next = '/auth/sessions/') {
    const res = await t.http().get(`/auth/sso/${conn.id}/`).query({ next }).expect(303);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sso_saml='));
    if (!cookie) throw new Error('no sso_saml cookie');
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    return {
      cookie: cookie.split(';')[0],
      requestId: authnRequestIdOf(res.headers.location as string),
      location: res.headers.location as string,
    };
  }
  const post = (conn: Connection, samlResponse: string, cookie?: string) => {
    const req = t.http().post(`/auth/sso/${conn.id}/saml/acs`).type('form');
    if (cookie) req.set('Cookie', cookie);
    return req.send({ SAMLResponse: samlResponse });
  };
  const sp = (conn: Connection = connection) => ({ entityId: conn.sp_entity_id, acsUrl: conn.acs_url });

  /** A refusal as the person and the developer see it: a 4xx page in words, the audit row, the attempt. */
  async function expectRefused(res: { status: number; text: string; headers: Record<string, string> }, reason: string, conn = connection) {
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('Sign-in refused');
    expect(res.headers['set-cookie'] ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/^esid=[^;]/)]));
    expect((await attempts(conn.id))[0]).toMatchObject({ outcome: 'failure', reason });
    expect((await audit('login_failure')).map((e) => e.metadata)).toContainEqual(expect.objectContaining({ reason, provider_id: conn.id }));
  }

  /** Signs in through the connection in a fresh Chromium context, starting at `url`; answers the page. */
  async function throughTheConnection(page: Page, person: UpstreamPerson, startUrl: string): Promise<void> {
    served.person = person;
    await page.goto(startUrl);
    // The hosted login asks who is signing in; this person's company signs in with its IdP.
    await page.waitForURL(/\/auth\/login\//);
    const next = new URL(page.url()).searchParams.get('next') ?? '/';
    await page.goto(`${t.baseUrl}/auth/sso/${connection.id}/?next=${encodeURIComponent(next)}`);
  }

  /**
   * An application's authorization request through the connection in a fresh Chromium context: the URL the
   * browser lands on at the application's redirect URI (the application itself is not served).
   */
  async function landedAtTheApp(person: UpstreamPerson, authorizationUrl: string): Promise<URL> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('https://app.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback' }));
    await throughTheConnection(page, person, authorizationUrl);
    await page.waitForURL((landed) => landed.href.startsWith(REDIRECT_URI));
    const landed = new URL(page.url());
    await context.close();
    return landed;
  }

  it('serves our SP metadata at sp_metadata_url: the entity id, the ACS and signed assertions wanted', async () => {
    const res = await t.http().get(new URL(connection.sp_metadata_url).pathname).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/samlmetadata\+xml/);
    expect(res.text).toContain(`entityID="${connection.sp_entity_id}"`);
    expect(res.text).toContain(`Location="${connection.acs_url}"`);
    expect(res.text).toContain('WantAssertionsSigned="true"');
  });

  it('signs a SCIM-provisioned person in through the IdP in Chromium: the answer is a cross-site POST and lands signed in', async () => {
    const person = await aProvisionedPerson('ada');
    served.person = person.upstream;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/sso/${connection.id}/?next=/auth/sessions/`);
    await page.waitForURL(`${t.baseUrl}/auth/sessions/`);
    expect(await page.textContent('body')).toContain(person.email);
    await context.close();

    expect((await attempts())[0]).toMatchObject({ outcome: 'success', subject: person.upstream.subject, email: person.email });
    const success = (await audit('login_success')).find((e) => e.actor_id === person.id);
    expect(success?.metadata.provider_id).toBe(connection.id);
  });

  describe('on to the applications, with no password of ours', () => {
    let spServer: SpServer;
    let registered: RegisteredSp;
    beforeAll(async () => {
      spServer = await startSpServer(() => registered, t.baseUrl);
      registered = await aRegisteredSp(t, dev, ws, { acs_url: `${spServer.base}/acs` });
    });
    afterAll(() => new Promise((resolve) => spServer.server.close(resolve)));

    it('through our SAML IdP to a service provider (node-saml), which sees the provisioned person', async () => {
      const person = await aProvisionedPerson('grace');
      const context = await browser.newContext();
      const page = await context.newPage();
      await throughTheConnection(page, person.upstream, `${spServer.base}/start`);
      await page.waitForURL(`${spServer.base}/acs`);
      expect(await page.textContent('h1')).toBe('Welcome to the SP');
      expect(await page.textContent('#uid')).toBe(person.id);
      expect(await page.textContent('#email')).toBe(person.email);
      await context.close();
    });

    it('through our OpenID provider to an openid-client application, whose ID token names the person', async () => {
      const { app } = await anApplication(t, {}, { dev, ws });
      const person = await aProvisionedPerson('hedy');
      const config = await oidc.discovery(new URL(t.baseUrl), app.client_id, undefined, oidc.ClientSecretBasic(app.client_secret!), {
        execute: [oidc.allowInsecureRequests],
      });
      const verifier = oidc.randomPKCECodeVerifier();
      const [nonce, state] = [oidc.randomNonce(), oidc.randomState()];
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
        state,
      });
      const landed = await landedAtTheApp(person.upstream, url.href);
      const tokens = await oidc.authorizationCodeGrant(config, landed, {
        pkceCodeVerifier: verifier,
        expectedNonce: nonce,
        expectedState: state,
      });
      expect(tokens.claims()).toMatchObject({ sub: person.id, email: person.email });
      expect(tokens.claims()!.amr).toEqual(expect.arrayContaining(['fed']));
      // Nothing forced this sign-in: the IdP may answer from its own session.
      expect(served.lastRequest?.forceAuthn).toBe(false);
    });

    it('asks the IdP for ForceAuthn when the application forces the sign-in (prompt=login, max_age)', async () => {
      const { app } = await anApplication(t, {}, { dev, ws });
      const person = await aProvisionedPerson('katherine');
      const config = await oidc.discovery(new URL(t.baseUrl), app.client_id, undefined, oidc.ClientSecretBasic(app.client_secret!), {
        execute: [oidc.allowInsecureRequests],
      });
      for (const forcing of [{ prompt: 'login' }, { max_age: '0' }] as Record<string, string>[]) {
        const verifier = oidc.randomPKCECodeVerifier();
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT_URI,
          scope: 'openid email',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: oidc.randomState(),
          ...forcing,
        });
        served.lastRequest = null;
        await landedAtTheApp(person.upstream, url.href);
        expect(served.lastRequest).toMatchObject({ forceAuthn: true });
      }
    });
  });

  describe('binding (HTTP, the same IdP answers)', () => {
    async function signIn(person: UpstreamPerson, conn = connection, idp = served.idp) {
      const s = await started(conn);
      return post(conn, await idp.signedResponse(sp(conn), person, { inResponseTo: s.requestId }), s.cookie);
    }
    const signedInAs = async () => (await audit('login_success'))[0]?.actor_id;

    it('keeps the same person when the IdP renames the email, and refuses a deactivated one with its reason', async () => {
      const person = await aProvisionedPerson('rename');
      const first = await signIn(person.upstream);
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe('/auth/sessions/');
      expect(first.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^esid=[^;]+/)]));
      expect(await signedInAs()).toBe(person.id);

      const renamed = await signIn({ ...person.upstream, email: uniqueEmail('renamed') });
      expect(renamed.status).toBe(303);
      expect(await signedInAs()).toBe(person.id);

      await scim
        .patch(`/Users/${person.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] })
        .expect(200);
      const refused = await signIn(person.upstream);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('deactivated');
      await expectRefused(refused, 'user_deactivated');
    });

    it('accepts an Entra-sized response (1,300 group ids, over 100 KiB) within the ACS limit, and refuses a larger body with 413 naming it', async () => {
      const person = await aProvisionedPerson('groups');
      // Entra ID sends each group as its object id: a person in 1,300 groups is over 100 KiB of XML.
      const groups = Array.from({ length: 1300 }, () => randomUUID());
      const s = await started();
      const response = await served.idp.signedResponse(sp(), { ...person.upstream, groups }, { inResponseTo: s.requestId });
      expect(Buffer.from(response, 'base64').length).toBeGreaterThan(100 * 1024);
      expect(response.length).toBeGreaterThan(128 * 1024);
      const res = await post(connection, response, s.cookie);
      expect({ status: res.status, location: res.headers.location }).toEqual({ status: 303, location: '/auth/sessions/' });
      expect(await signedInAs()).toBe(person.id);

      // Past the ACS's 384 KiB: refused before it is read, on an HTML page that says the limit.
      const tooBig = await post(connection, 'A'.repeat(SAML_ACS_FORM_LIMIT_BYTES), s.cookie);
      expect(tooBig.status).toBe(413);
      expect(tooBig.headers['content-type']).toMatch(/text\/html/);
      expect(tooBig.text).toContain('the limit here is 384 KiB');
      // Every other form keeps its 32 KiB.
      const otherForm = await t
        .http()
        .post('/auth/login/')
        .type('form')
        .send({ email: 'A'.repeat(40 * 1024) });
      expect(otherForm.status).toBe(413);
      expect(otherForm.text).toContain('the limit here is 32 KiB');
    });

    it('refuses a person nobody provisioned (user_not_provisioned)', async () => {
      const res = await signIn({ subject: 'okta-nobody', email: uniqueEmail('nobody') });
      expect(res.status).toBe(403);
      await expectRefused(res, 'user_not_provisioned');
    });

    it('accepts either of two IdP certificates during a rollover', async () => {
      const rolled = new UpstreamSamlIdp(served.idp.entityId, served.idp.ssoUrl, idpKeys(true));
      const both = await aConnection(served.idp, { idp_certificates: [served.idp.keys.certPem, rolled.keys.certPem] });
      const person = await aProvisionedPerson('rollover');
      expect((await signIn(person.upstream, both, served.idp)).status).toBe(303);
      expect((await signIn(person.upstream, both, rolled)).status).toBe(303);
      // A connection that trusts only the old certificate refuses the new key.
      const res = await signIn(person.upstream, connection, rolled);
      await expectRefused(res, 'signature_invalid');
    });
  });

  describe('hostile answers, each refused with its typed reason and never a 5xx', () => {
    let person: { id: string; email: string; upstream: UpstreamPerson };
    beforeAll(async () => {
      person = await aProvisionedPerson('hostile');
    });

    it('a replayed response (response_replayed), even from the browser that started it', async () => {
      const s = await started();
      const response = await served.idp.signedResponse(sp(), person.upstream, { inResponseTo: s.requestId });
      expect((await post(connection, response, s.cookie)).status).toBe(303);
      await expectRefused(await post(connection, response, s.cookie), 'response_replayed');
    });

    it('a response for another audience (audience_mismatch)', async () => {
      const s = await started();
      const response = await served.idp.signedResponse(sp(), person.upstream, {
        inResponseTo: s.requestId,
        audience: 'https://other.example.test/sp',
      });
      await expectRefused(await post(connection, response, s.cookie), 'audience_mismatch');
    });

    it('an expired response (response_expired), beyond the two minutes of clock skew', async () => {
      const s = await started();
      const response = await served.idp.signedResponse(sp(), person.upstream, {
        inResponseTo: s.requestId,
        notBefore: new Date(Date.now() - 20 * 60_000),
        notOnOrAfter: new Date(Date.now() - 3 * 60_000),
      });
      await expectRefused(await post(connection, response, s.cookie), 'response_expired');
    });

    it("another connection's response, posted to this one's ACS (destination_mismatch)", async () => {
      const other = await aConnection(served.idp);
      const s = await started();
      const response = await served.idp.signedResponse(sp(other), person.upstream, { inResponseTo: s.requestId });
      await expectRefused(await post(connection, response, s.cookie), 'destination_mismatch');
    });

    it('an unsigned response (signature_invalid)', async () => {
      const s = await started();
      const unsigned = base64(served.idp.responseXml(sp(), person.upstream, { inResponseTo: s.requestId }));
      await expectRefused(await post(connection, unsigned, s.cookie), 'signature_invalid');
    });

    it('a genuine answer to a request this browser did not start (state_mismatch), and an unsolicited one (unsolicited_response)', async () => {
      const s = await started();
      const response = await served.idp.signedResponse(sp(), person.upstream, { inResponseTo: s.requestId });
      await expectRefused(await post(connection, response), 'state_mismatch');
      const unsolicited = await served.idp.signedResponse(sp(), person.upstream, { inResponseTo: null });
      await expectRefused(await post(connection, unsolicited, s.cookie), 'unsolicited_response');
    });

    it('an IdP-initiated response where the connection allows them, going to a safe RelayState', async () => {
      const open = await aConnection(served.idp, { allow_unsolicited: true });
      const response = await served.idp.signedResponse(sp(open), person.upstream, { inResponseTo: null });
      const res = await t
        .http()
        .post(`/auth/sso/${open.id}/saml/acs`)
        .type('form')
        .send({ SAMLResponse: response, RelayState: 'https://evil.example/' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/');
    });

    it('no SAMLResponse, garbage and a DTD (response_invalid); an OIDC connection has no ACS (404)', async () => {
      const s = await started();
      await expectRefused(await post(connection, '', s.cookie), 'response_invalid');
      await expectRefused(await post(connection, 'not base64 at all!', s.cookie), 'response_invalid');
      const dtd = base64(
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&x;</samlp:Response>',
      );
      await expectRefused(await post(connection, dtd, s.cookie), 'response_invalid');
      // Within the ACS's form limit but beyond the 256 KiB of base64 it reads: a typed refusal, not a 5xx.
      await expectRefused(await post(connection, 'A'.repeat(300 * 1024), s.cookie), 'response_invalid');
      const oidcConnection = await t
        .http()
        .post('/developer/external-providers/')
        .set(dev.auth)
        .send({
          workspace_id: ws.id,
          name: 'OIDC',
          protocol: 'oidc',
          oidc: { issuer: 'https://op.example.test', client_id: 'c', client_secret: 's' },
        })
        .expect(201);
      await t
        .http()
        .post(`/auth/sso/${oidcConnection.body.id as string}/saml/acs`)
        .type('form')
        .send({ SAMLResponse: 'x' })
        .expect(404);
      await t
        .http()
        .get(`/auth/sso/${oidcConnection.body.id as string}/saml/metadata`)
        .expect(404);
    });

    it("another workspace's connection is its own: this workspace's person is not provisioned there", async () => {
      const otherWs = await aWorkspace(t, dev);
      const theirs = await aConnection(served.idp, {}, otherWs);
      const s = await started(theirs);
      const res = await post(theirs, await served.idp.signedResponse(sp(theirs), person.upstream, { inResponseTo: s.requestId }), s.cookie);
      expect(res.status).toBe(403);
      expect((await attempts(theirs.id))[0]).toMatchObject({ outcome: 'failure', reason: 'user_not_provisioned' });
    });
  });
});
