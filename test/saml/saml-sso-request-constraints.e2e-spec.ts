import { DOMParser } from '@xmldom/xmldom';
import { SamlStatusError } from '@node-saml/node-saml';
import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { Agent, newBrowser, ssoAs } from './support/browser-flow';
import { aRegisteredSp, auditEvents, formFields, RegisteredSp, spRequest } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { certificatesInMetadata, certPemFromBase64, xmlsecVerify } from './support/saml-verifiers';

const AC = 'urn:oasis:names:tc:SAML:2.0:ac:classes:';
const P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const A = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

const requested = (comparison: string, ...classes: string[]) =>
  `<samlp:RequestedAuthnContext Comparison="${comparison}">${classes.map((c) => `<saml:AuthnContextClassRef>${AC}${c}</saml:AuthnContextClassRef>`).join('')}</samlp:RequestedAuthnContext>`;
const subject = (nameId: string, format = EMAIL) => `<saml:Subject><saml:NameID Format="${format}">${nameId}</saml:NameID></saml:Subject>`;

/** Status codes of a Response (top level, second level) and the class of its AuthnStatement, if any. */
function facts(xml: string) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const codes = Array.from(doc.getElementsByTagNameNS(P, 'StatusCode')).map((c) => c.getAttribute('Value')!.replace(/^.*:/, ''));
  const classRef = doc.getElementsByTagNameNS(A, 'AuthnContextClassRef')[0]?.textContent ?? null;
  return { codes, classRef, assertions: doc.getElementsByTagNameNS(A, 'Assertion').length };
}

describe('SAML SSO honours what the AuthnRequest asks for', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let alice: TestEndUser;
  let bob: TestEndUser;
  let cert: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url });
    tenant = await aTenant(t);
    alice = await anEndUser(t, tenant.client, { smtp, firstName: 'Alice' });
    bob = await anEndUser(t, tenant.client, { smtp, firstName: 'Bob' });
    const metadata = await t.http().get('/saml/metadata/').expect(200);
    cert = certPemFromBase64(certificatesInMetadata(metadata.text)[0]);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** A browser signed in as `who` (through an SSO at a throwaway SP of the same workspace). */
  async function signedIn(who: TestEndUser): Promise<Agent> {
    const browser = newBrowser(t);
    const warmup = await aRegisteredSp(t, tenant.dev, tenant.ws);
    expect((await ssoAs(browser, spRequest(warmup), who)).status).toBe(200);
    return browser;
  }

  /** The SP's view of an error Response: node-saml's status error, and xmlsec1's check of our signature on the Response. */
  async function expectSignedError(sp: RegisteredSp, samlResponse: string, second: string) {
    const error = await sp.saml.validatePostResponseAsync({ SAMLResponse: samlResponse }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(SamlStatusError);
    expect((error as SamlStatusError).message).toMatch(/^SAML provider returned Requester error/);
    expect((error as SamlStatusError).xmlStatus).toContain(`urn:oasis:names:tc:SAML:2.0:status:${second}`);
    const xml = decode(samlResponse);
    expect(facts(xml)).toMatchObject({ codes: ['Requester', second], assertions: 0 });
    const verified = await xmlsecVerify(xml, cert, 'Response');
    expect(verified.ok).toBe(true);
  }

  describe('RequestedAuthnContext', () => {
    it('answers a class we cannot provide (exact X509) with a signed Requester/NoAuthnContext at the ACS, without a login page', async () => {
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const page = await newBrowser(t)
        .get(spRequest(sp, requested('exact', 'X509')))
        .expect(200);
      const form = formFields(page.text);
      expect(form.action).toBe(sp.acsUrl);
      await expectSignedError(sp, form.SAMLResponse, 'NoAuthnContext');
      const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
      expect(failures.find((e) => e.target_id === sp.id)?.metadata).toMatchObject({
        reason: 'authn_context_unsatisfiable',
        comparison: 'exact',
      });
    });

    it.each([
      ['exact', ['X509']],
      ['exact', ['Password']],
      ['minimum', ['X509']],
      ['better', ['PasswordProtectedTransport']],
      ['maximum', ['Password']],
      ['minimum', ['urn-not-a-known-class']],
    ])('refuses %s %j for a signed-in user too', async (comparison, classes) => {
      const browser = await signedIn(alice);
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const page = await browser.get(spRequest(sp, requested(comparison, ...classes))).expect(200);
      await expectSignedError(sp, formFields(page.text).SAMLResponse, 'NoAuthnContext');
    });

    it.each([
      ['exact', ['X509', 'PasswordProtectedTransport']],
      ['minimum', ['Password']],
      ['minimum', ['PasswordProtectedTransport']],
      ['better', ['Password']],
      ['maximum', ['X509']],
    ])('signs %s %j in, saying PasswordProtectedTransport (how the user signed in)', async (comparison, classes) => {
      const browser = await signedIn(alice);
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const page = await browser.get(spRequest(sp, requested(comparison, ...classes))).expect(200);
      const form = formFields(page.text);
      const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
      expect(profile?.nameID).toBe(alice.email);
      expect(facts(decode(form.SAMLResponse))).toMatchObject({ codes: ['Success'], classRef: `${AC}PasswordProtectedTransport` });
    });
  });

  describe('Subject', () => {
    it('never asserts the signed-in user for a request naming someone else: signed Requester/UnknownPrincipal', async () => {
      const browser = await signedIn(alice);
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const page = await browser.get(spRequest(sp, subject(bob.email))).expect(200);
      const form = formFields(page.text);
      expect(form.action).toBe(sp.acsUrl);
      await expectSignedError(sp, form.SAMLResponse, 'UnknownPrincipal');
      expect(decode(form.SAMLResponse)).not.toContain(alice.email);
      const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
      expect(failures.find((e) => e.target_id === sp.id)).toMatchObject({
        actor_id: alice.id,
        metadata: expect.objectContaining({ reason: 'subject_mismatch', requested_name_id: bob.email }),
      });
    });

    it('asserts the signed-in user when the Subject names them (email compared without case)', async () => {
      const browser = await signedIn(alice);
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const page = await browser.get(spRequest(sp, subject(alice.email.toUpperCase()))).expect(200);
      const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
      expect(profile?.nameID).toBe(alice.email);
    });

    it('checks the Subject after the login page too: signing in as alice for a request naming bob gives no assertion', async () => {
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const page = await ssoAs(newBrowser(t), spRequest(sp, subject(bob.email)), alice);
      expect(page.status).toBe(200);
      await expectSignedError(sp, formFields(page.text).SAMLResponse, 'UnknownPrincipal');
    });

    it('matches a persistent Subject by the SP-specific value, not by email or user id', async () => {
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: PERSISTENT });
      const browser = await signedIn(alice);
      const first = await browser.get(spRequest(sp)).expect(200);
      const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(first.text).SAMLResponse });
      const aliceAtSp = profile!.nameID;

      const same = await browser.get(spRequest(sp, subject(aliceAtSp, PERSISTENT))).expect(200);
      const again = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(same.text).SAMLResponse });
      expect(again.profile?.nameID).toBe(aliceAtSp);

      for (const wrong of [
        subject(alice.id, PERSISTENT),
        subject(alice.email, EMAIL),
        subject(`${aliceAtSp.slice(0, -1)}${aliceAtSp.endsWith('A') ? 'B' : 'A'}`, PERSISTENT),
      ]) {
        const page = await browser.get(spRequest(sp, wrong)).expect(200);
        await expectSignedError(sp, formFields(page.text).SAMLResponse, 'UnknownPrincipal');
      }
    });
  });
});
