import { DOMParser } from '@xmldom/xmldom';
import { SamlStatusError } from '@node-saml/node-saml';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { aRegisteredSp, auditEvents, spRequest } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';

const AC = 'urn:oasis:names:tc:SAML:2.0:ac:classes:';
const REFEDS_MFA = 'https://refeds.org/profile/mfa';
const P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const A = 'urn:oasis:names:tc:SAML:2.0:assertion';
/** Where aRegisteredSp puts the SPs' ACS URLs: answered inside the browser, never on the network. */
const SP_SITE = 'https://sp.example.test';

const requested = (comparison: string, classRef: string) =>
  `<samlp:RequestedAuthnContext Comparison="${comparison}"><saml:AuthnContextClassRef>${classRef}</saml:AuthnContextClassRef></samlp:RequestedAuthnContext>`;

function facts(samlResponse: string) {
  const doc = new DOMParser().parseFromString(Buffer.from(samlResponse, 'base64').toString('utf8'), 'text/xml');
  const codes = Array.from(doc.getElementsByTagNameNS(P, 'StatusCode')).map((c) => c.getAttribute('Value')!.replace(/^.*:/, ''));
  return { codes, classRef: doc.getElementsByTagNameNS(A, 'AuthnContextClassRef')[0]?.textContent ?? null };
}

/**
 * The SAML step-up loop, in Chromium (decision 0215): a browser session signed in with the password and a
 * passkey (a CDP virtual authenticator), then an SP that asks exactly TimeSyncToken, a one-time code the
 * session did not use and a passkey cannot give. The browser must end at the SP with a signed answer (here
 * the NoAuthnContext refusal, since the account has no authenticator app to step up with), never bounce
 * between /saml/sso/finish/ and the step-up page until Chromium gives up with "too many redirects".
 */
describe('SAML step-up in Chromium for a passkey session asked for exact TimeSyncToken', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let tenant: Tenant;
  let origin: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    // WebAuthn needs a domain as relying-party id: the service answers as http://localhost:<port>.
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'http://localhost:{port}' });
    origin = t.config.PUBLIC_BASE_URL;
    tenant = await aTenant(t);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
  });

  /** A page with a virtual authenticator (CTAP2, resident keys, user verification) that answers at once. */
  async function pageWithAuthenticator(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return page;
  }

  /** The SAMLResponses the browser posts to the SPs' ACS URLs, answered with a page of the "SP". */
  function spSite(context: BrowserContext): Promise<string[]> {
    const posted: string[] = [];
    return context
      .route(`${SP_SITE}/**`, async (route) => {
        const form = new URLSearchParams(route.request().postData() ?? '');
        posted.push(form.get('SAMLResponse') ?? '');
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back at the SP</h1>' });
      })
      .then(() => posted);
  }

  /** The password on the hosted login the IdP sent the browser to. */
  async function password(page: Page, user: TestEndUser): Promise<void> {
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('answers the SP with a signed NoAuthnContext naming the user, after at most one trip through the IdP', async () => {
    const user = await anEndUser(t, tenant.client, { smtp });
    const context = await browser.newContext();
    try {
      const page = await pageWithAuthenticator(context);
      const posted = await spSite(context);

      // The passkey, added on the hosted security page after a password sign-in.
      await page.goto(
        `${origin}/auth/login/?client_id=${encodeURIComponent(tenant.client.client_id)}&next=${encodeURIComponent('/auth/security/')}`,
      );
      await password(page, user);
      await page.waitForURL((url) => url.pathname === '/auth/security/');
      await page.getByLabel('Passkey name').fill('Laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByRole('status').filter({ hasText: 'Passkey “Laptop” added.' }).waitFor();

      // An SP asking for MFA: the password session steps up with the passkey alone (no password asked again).
      const mfaSp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      await page.goto(`${origin}${spRequest(mfaSp, requested('exact', REFEDS_MFA))}`);
      await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
      expect(await page.getByLabel('Password').count()).toBe(0);
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByRole('heading', { name: 'Back at the SP' }).waitFor();
      expect(facts(posted[0])).toEqual({ codes: ['Success'], classRef: REFEDS_MFA });
      await expect(mfaSp.saml.validatePostResponseAsync({ SAMLResponse: posted[0] })).resolves.toMatchObject({
        profile: expect.objectContaining({ nameID: user.email }) as object,
      });

      // The SP asking exactly TimeSyncToken: every IdP page the browser is sent to is counted.
      const idpTrips: string[] = [];
      const count = (request: Request) => {
        const url = new URL(request.url());
        if (request.isNavigationRequest() && url.origin === origin) idpTrips.push(url.pathname);
      };
      page.on('request', count);
      const tstSp = await aRegisteredSp(t, tenant.dev, tenant.ws);
      await page.goto(`${origin}${spRequest(tstSp, requested('exact', `${AC}TimeSyncToken`))}`);
      await page.getByRole('heading', { name: 'Back at the SP' }).waitFor();
      page.off('request', count);

      expect(posted).toHaveLength(2);
      expect(facts(posted[1]).codes).toEqual(['Requester', 'NoAuthnContext']);
      // Signed: node-saml checks the signature before it reports the status as a SamlStatusError.
      await expect(tstSp.saml.validatePostResponseAsync({ SAMLResponse: posted[1] })).rejects.toBeInstanceOf(SamlStatusError);
      expect(idpTrips[0]).toBe('/saml/sso/');
      expect(idpTrips.filter((path) => path.startsWith('/auth/login'))).toEqual([]);
      expect(idpTrips.length).toBeLessThanOrEqual(2);

      const failure = await eventually(async () => {
        const row = (await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure')).find((e) => e.target_id === tstSp.id);
        if (!row) throw new Error('no saml_sso_failure row yet');
        return row;
      });
      expect(failure).toMatchObject({ actor_type: 'end_user', actor_id: user.id, metadata: { reason: 'authn_context_unsatisfiable' } });
    } finally {
      await context.close();
    }
  });
});
