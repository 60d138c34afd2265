import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SamlStatusError } from '@node-saml/node-saml';
import { NAME_ID_FORMAT } from '../../src/saml/protocol/saml-urns';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { Agent, newBrowser, ssoAs } from './support/browser-flow';
import { aRegisteredSp, auditEvents, formFields, RegisteredSp, spRequest } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { certificatesInMetadata, certPemFromBase64, xmlsecVerify } from './support/saml-verifiers';

const P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const policy = (attrs: string) => `<samlp:NameIDPolicy ${attrs}/>`;
/** The raw AuthnRequest XML inside a Redirect-binding path (for re-sending it by POST). */
const postBody = (path: string) => {
  const deflated = Buffer.from(new URL(path, 'http://x').searchParams.get('SAMLRequest')!, 'base64');
  return inflateRawSync(deflated).toString('base64');
};

describe('SAML SSO: the HTTP-POST binding and NameIDPolicy', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let user: TestEndUser;
  let cert: string;
  const logFile = join(tmpdir(), `saml-post-${process.pid}-${Date.now()}.log`);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url, LOG_FILE: logFile, LOG_LEVEL: 'warn' });
    tenant = await aTenant(t);
    user = await anEndUser(t, tenant.client, { smtp });
    cert = certPemFromBase64(certificatesInMetadata((await t.http().get('/saml/metadata/').expect(200)).text)[0]);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  async function unattributed(reason: string): Promise<number> {
    const metrics = await t.http().get('/metrics').expect(200);
    const line = new RegExp(`^saml_sso_unattributed_failures_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(metrics.text);
    return line ? Number(line[1]) : 0;
  }
  const logLinesOf = (requestId: string) =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes(requestId));

  describe('refusals by POST are counted, logged and audited as by GET', () => {
    for (const [label, samlRequest] of [
      ['not base64', '%%%'],
      ['base64 of something that is not an AuthnRequest', Buffer.from('<samlp:LogoutRequest/>').toString('base64')],
      ['missing', undefined],
    ] as const) {
      it(`refuses a SAMLRequest that is ${label}: 400 page, malformed_request counted, one log line with the request id`, async () => {
        const before = await unattributed('malformed_request');
        const res = await t
          .http()
          .post('/saml/sso/')
          .type('form')
          .send(samlRequest === undefined ? {} : { SAMLRequest: samlRequest })
          .expect(400);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(await unattributed('malformed_request')).toBe(before + 1);
        const requestId = res.headers['x-request-id'] as string;
        await eventually(() =>
          expect(logLinesOf(requestId).join('\n')).toMatch(/SSO refused before any service provider was identified: malformed_request/),
        );
        // The same bytes by GET: the same counter, the same kind of line.
        if (samlRequest !== undefined) {
          const get = await t.http().get('/saml/sso/').query({ SAMLRequest: samlRequest }).expect(400);
          expect(await unattributed('malformed_request')).toBe(before + 2);
          await eventually(() =>
            expect(logLinesOf(get.headers['x-request-id'] as string).join('\n')).toMatch(
              /SSO refused before any service provider was identified: malformed_request/,
            ),
          );
        }
      });
    }

    it('counts a request from an unknown Issuer as unknown_sp, and audits an ACS mismatch in the SP workspace', async () => {
      const before = await unattributed('unknown_sp');
      const stranger = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const unknown = spRequest({ ...stranger, entityId: 'https://nobody.example.test/metadata' });
      const sent = await t
        .http()
        .post('/saml/sso/')
        .type('form')
        .send({ SAMLRequest: postBody(unknown) })
        .expect(303);
      await t.http().get(sent.headers.location).expect(400);
      expect(await unattributed('unknown_sp')).toBe(before + 1);

      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const mismatched = spRequest(sp, '', ' AssertionConsumerServiceURL="https://attacker.example.test/acs"');
      const again = await t
        .http()
        .post('/saml/sso/')
        .type('form')
        .send({ SAMLRequest: postBody(mismatched) })
        .expect(303);
      await t.http().get(again.headers.location).expect(400);
      const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
      expect(failures.find((e) => e.target_id === sp.id)?.metadata.reason).toBe('acs_mismatch');
    });

    it('passes a repeated RelayState on, so it is refused and audited as a repeated one by GET is', async () => {
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const sent = await t
        .http()
        .post('/saml/sso/')
        .type('form')
        .send(`SAMLRequest=${encodeURIComponent(postBody(spRequest(sp)))}&RelayState=a&RelayState=b`)
        .expect(303);
      const res = await t.http().get(sent.headers.location).expect(400);
      expect(res.text).toContain('RelayState must be sent once');
      const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
      expect(failures.find((e) => e.target_id === sp.id)?.metadata.reason).toBe('bad_relay_state');
    });
  });

  describe('NameIDPolicy', () => {
    /** A browser signed in as the user (through an SSO at a throwaway SP of the same workspace). */
    async function signedIn(): Promise<Agent> {
      const browser = newBrowser(t);
      expect((await ssoAs(browser, spRequest(await aRegisteredSp(t, tenant.dev, tenant.ws)), user)).status).toBe(200);
      return browser;
    }

    async function assertion(sp: RegisteredSp, browser: Agent, nameIdPolicy: string) {
      const page = await browser.get(spRequest(sp, nameIdPolicy)).expect(200);
      const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
      return profile!;
    }

    it('honours a Format the registration can produce: transient for any SP, emailAddress for an unspecified email one', async () => {
      const browser = await signedIn();
      const emailSp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const transient = await assertion(emailSp, browser, policy(`Format="${NAME_ID_FORMAT.transient}"`));
      expect(transient.nameIDFormat).toBe(NAME_ID_FORMAT.transient);
      expect(transient.nameID).not.toBe(user.email);
      expect(transient.email).toBe(user.email);
      const unspecified = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: NAME_ID_FORMAT.unspecified });
      const labelled = await assertion(unspecified, browser, policy(`Format="${NAME_ID_FORMAT.email}" AllowCreate="true"`));
      expect([labelled.nameIDFormat, labelled.nameID]).toEqual([NAME_ID_FORMAT.email, user.email]);
      // The registered format, for a policy naming it, naming unspecified, or this SP as qualifier.
      for (const attrs of [
        `Format="${NAME_ID_FORMAT.email}"`,
        `Format="${NAME_ID_FORMAT.unspecified}"`,
        `SPNameQualifier="${emailSp.entityId}"`,
      ]) {
        const same = await assertion(emailSp, browser, policy(attrs));
        expect([same.nameIDFormat, same.nameID]).toEqual([NAME_ID_FORMAT.email, user.email]);
      }
    });

    it('answers a Format the registration cannot produce with a signed Requester/InvalidNameIDPolicy Response, at once, audited', async () => {
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      // No session needed: signing in would not change the answer.
      const page = await t
        .http()
        .get(spRequest(sp, policy(`Format="${NAME_ID_FORMAT.persistent}"`)))
        .expect(200);
      const form = formFields(page.text);
      expect(form.action).toBe(sp.acsUrl);
      const error = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(SamlStatusError);
      expect((error as SamlStatusError).xmlStatus).toContain('urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy');
      const xml = decode(form.SAMLResponse);
      const doc = new DOMParser().parseFromString(xml, 'text/xml');
      expect(Array.from(doc.getElementsByTagNameNS(P, 'StatusCode')).map((c) => c.getAttribute('Value'))).toEqual([
        'urn:oasis:names:tc:SAML:2.0:status:Requester',
        'urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy',
      ]);
      expect(xml).not.toContain('Assertion');
      expect(xml).toContain(`the NameID format ${NAME_ID_FORMAT.persistent}`);
      expect((await xmlsecVerify(xml, cert, 'Response')).ok).toBe(true);
      const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
      expect(failures.find((e) => e.target_id === sp.id)?.metadata).toMatchObject({
        reason: 'name_id_policy_unsatisfiable',
        requested_format: NAME_ID_FORMAT.persistent,
        registered_format: NAME_ID_FORMAT.email,
      });
    });

    it('refuses a qualifier naming another SP or an affiliation the same way', async () => {
      const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      const page = await t
        .http()
        .get(spRequest(sp, policy('SPNameQualifier="https://affiliation.example.test"')))
        .expect(200);
      const xml = decode(formFields(page.text).SAMLResponse);
      expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy');
      expect(xml).toContain('identifiers qualified by https://affiliation.example.test');
    });
  });
});
