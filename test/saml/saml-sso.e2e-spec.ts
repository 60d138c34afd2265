import { DOMParser } from '@xmldom/xmldom';
import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { newBrowser, signInAt } from './support/browser-flow';
import { aRegisteredSp, auditEvents, authorizePath, formFields, RegisteredSp } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { certificatesInMetadata, certPemFromBase64, xmlsecVerify } from './support/saml-verifiers';

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const A = 'urn:oasis:names:tc:SAML:2.0:assertion';

function responseFacts(xml: string) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement!;
  const assertion = doc.getElementsByTagNameNS(A, 'Assertion')[0];
  return {
    destination: root.getAttribute('Destination'),
    inResponseTo: root.getAttribute('InResponseTo'),
    issuer: doc.getElementsByTagNameNS(A, 'Issuer')[0].textContent,
    assertionIssuer: assertion.getElementsByTagNameNS(A, 'Issuer')[0].textContent,
    recipient: doc.getElementsByTagNameNS(A, 'SubjectConfirmationData')[0].getAttribute('Recipient'),
    assertionId: assertion.getAttribute('ID'),
    status: doc.getElementsByTagNameNS(P, 'StatusCode')[0].getAttribute('Value'),
  };
}

describe('SAML SSO through the hosted login page', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let user: TestEndUser;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    // One signing thread, as the default gives a process with a core to spare: these SSOs go through it.
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url, SAML_SIGNING_THREADS: '1' });
    tenant = await aTenant(t);
    user = await anEndUser(t, tenant.client, { smtp, firstName: 'Ada' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** SP redirect -> our SSO -> login page -> finish; returns the auto-submit page. */
  async function fullFlow(sp: RegisteredSp, relayState = '', who = user) {
    const browser = newBrowser(t);
    const { path, requestId } = await authorizePath(sp, relayState);
    const start = await browser.get(path).expect(302);
    expect(start.headers.location).toBe(`/auth/login/?workspace_id=${tenant.ws.id}&next=%2Fsaml%2Fsso%2Ffinish%2F`);
    const next = await signInAt(browser, start.headers.location, who);
    expect(next).toBe('/saml/sso/finish/');
    const page = await browser.get(next).expect(200);
    return { browser, page, requestId, form: formFields(page.text) };
  }

  it('signs the user in; node-saml and xmlsec1 accept the Response, with the mapped attributes', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const { page, requestId, form } = await fullFlow(sp, 'https://app.example.test/after?x=1&y=<2>');
    expect(form.action).toBe(sp.acsUrl);
    expect(form.RelayState).toBe('https://app.example.test/after?x=1&y=<2>');
    expect(page.headers['cache-control']).toBe('no-store');
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers['content-security-policy'])?.[1];
    expect(page.text).toContain(`<script nonce="${nonce}">`);

    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
    expect(profile).toMatchObject({ nameID: user.email, email: user.email, firstName: 'Ada', displayName: 'Ada', uid: user.id });
    expect(profile?.lastName).toBeUndefined(); // empty field: left out

    // node-saml checks neither Destination, Recipient nor Issuer: we do.
    const facts = responseFacts(decode(form.SAMLResponse));
    expect(facts).toMatchObject({
      destination: sp.acsUrl,
      recipient: sp.acsUrl,
      inResponseTo: requestId,
      issuer: samlEnv().SAML_IDP_ENTITY_ID,
      assertionIssuer: samlEnv().SAML_IDP_ENTITY_ID,
    });

    const success = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_success');
    expect(success.find((e) => e.metadata.assertion_id === facts.assertionId)).toMatchObject({
      actor_type: 'end_user',
      actor_id: user.id,
      target_id: sp.id,
    });

    // The same Response verifies with xmlsec1, given only the certificate our metadata publishes.
    const metadata = await t.http().get('/saml/metadata/').expect(200);
    const cert = certPemFromBase64(certificatesInMetadata(metadata.text)[0]);
    const verified = await xmlsecVerify(decode(form.SAMLResponse), cert, 'Assertion');
    expect(verified.output).toMatch(/OK/);
    expect(verified.ok).toBe(true);
  });

  it('fails validation in node-saml when the NameID was changed in transit', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const { form } = await fullFlow(sp);
    const tampered = decode(form.SAMLResponse).replace(`>${user.email}</saml:NameID>`, '>mallory@example.test</saml:NameID>');
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(tampered).toString('base64') })).rejects.toThrow();
  });

  it('gives another SP its own mapping, a signed Response, and its default RelayState', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws, {
      attribute_mapping: { 'urn:oid:0.9.2342.19200300.100.1.3': 'email', cn: 'display_name' },
      sign_assertions: false,
      default_relay_state: 'https://other.example.test/home',
    });
    const { form } = await fullFlow(sp);
    expect(form.RelayState).toBe('https://other.example.test/home');
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
    expect(profile?.['urn:oid:0.9.2342.19200300.100.1.3']).toBe(user.email);
    expect(profile?.cn).toBe('Ada');
    expect(profile?.firstName).toBeUndefined();
    expect(profile?.uid).toBeUndefined();
  });

  it('answers at once when the browser is already signed in, and a finish ticket works only once', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const { browser } = await fullFlow(sp);
    const again = await authorizePath(sp);
    const page = await browser.get(again.path).expect(200);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
    expect(profile?.nameID).toBe(user.email);
    const replay = await browser.get('/saml/sso/finish/').expect(400);
    expect(replay.text).toContain('expired');
  });

  it('answers twelve requests of a signed-in browser sent at once, each with its own signed Response the SP accepts', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const { browser } = await fullFlow(sp);
    // One after another: authorizePath reads the request's ID as the last one the SP's cache holds.
    const requests = [];
    for (let i = 0; i < 12; i++) requests.push(await authorizePath(sp));
    const pages = await Promise.all(requests.map((r) => browser.get(r.path).expect(200)));

    const metadataCert = certPemFromBase64(certificatesInMetadata((await t.http().get('/saml/metadata/').expect(200)).text)[0]);
    for (const [i, page] of pages.entries()) {
      const xml = decode(formFields(page.text).SAMLResponse);
      expect(responseFacts(xml).inResponseTo).toBe(requests[i].requestId);
      expect((await xmlsecVerify(xml, metadataCert, 'Assertion')).ok).toBe(true);
      const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
      expect(profile?.nameID).toBe(user.email);
    }
  });

  it('makes the user sign in again for ForceAuthn even with a session', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const { browser } = await fullFlow(sp);
    const forced = await authorizePath(sp, '', { forceAuthn: true });
    const start = await browser.get(forced.path).expect(302);
    expect(start.headers.location).toMatch(/^\/auth\/login\/\?workspace_id=/);
    expect(([] as string[]).concat(start.headers['set-cookie'] ?? []).some((c) => /^esid=;/.test(c))).toBe(true);
    const next = await signInAt(browser, start.headers.location, user);
    const page = await browser.get(next).expect(200);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
    expect(profile?.nameID).toBe(user.email);
  });

  it('answers IsPassive without a session with a NoPassive Response instead of the login page', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const passive = await authorizePath(sp, 'keep-me', { passive: true });
    const page = await newBrowser(t).get(passive.path).expect(200);
    const form = formFields(page.text);
    expect(form.RelayState).toBe('keep-me');
    expect(decode(form.SAMLResponse)).toContain('urn:oasis:names:tc:SAML:2.0:status:NoPassive');
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse })).resolves.toEqual({
      profile: null,
      loggedOut: false,
    });
  });

  it('sends a user of another workspace to sign in again as a member of the SP workspace', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const other = await aTenant(t);
    const outsider = await anEndUser(t, other.client, { smtp });
    const browser = newBrowser(t);
    const otherSp = await aRegisteredSp(t, other.dev, other.ws);
    // Signed in to the other workspace first.
    const first = await browser.get((await authorizePath(otherSp)).path).expect(302);
    await browser.get(await signInAt(browser, first.headers.location, outsider)).expect(200);
    const start = await browser.get((await authorizePath(sp)).path).expect(302);
    expect(start.headers.location).toContain(`workspace_id=${tenant.ws.id}`);
    const form = await browser.get(start.headers.location).expect(200);
    expect(form.text).toContain('name="password"');
  });

  it('shows "verify your email first" and asserts nothing for an unverified address', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const member = await anEndUser(t, tenant.client, { smtp });
    const { browser } = await fullFlow(sp, '', member);
    // The address changes state after sign-in (e.g. an admin reset it): the next SSO must not assert it.
    await t.dataSource.query(`UPDATE end_users SET email_verified = false WHERE id = $1`, [member.id]);
    const page = await browser.get((await authorizePath(sp)).path).expect(403);
    expect(page.text).toContain('Verify your email first');
    expect(page.text).not.toContain('SAMLResponse');
    const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
    expect(failures.find((e) => e.metadata.reason === 'email_unverified' && e.actor_id === member.id)).toBeDefined();
  });

  it('accepts the HTTP-POST binding by re-sending it as the redirect binding', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const { path } = await authorizePath(sp, 'rs');
    const deflated = new URL(path, 'http://x').searchParams.get('SAMLRequest')!;
    const xml = (await import('node:zlib')).inflateRawSync(Buffer.from(deflated, 'base64'));
    const res = await t
      .http()
      .post('/saml/sso/')
      .type('form')
      .send({ SAMLRequest: xml.toString('base64'), RelayState: 'rs' })
      .expect(303);
    expect(res.headers.location).toMatch(/^\/saml\/sso\/\?SAMLRequest=.+&RelayState=rs$/);
    await t.http().get(res.headers.location).expect(302);
  });
});
