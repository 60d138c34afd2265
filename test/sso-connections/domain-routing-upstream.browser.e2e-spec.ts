import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import * as oidc from 'openid-client';
import { REDIRECT_URI } from '../oidc/support';
import { createTestApp, TestApp } from '../support/app';
import { BROWSER_STEP_CEILING_MS, withChromium } from '../support/browser';
import { startDnsServer, TestDnsServer } from './support/dns-server';
import { accountsWithEmail, anOidcTenant, provision, type OidcTenant } from './support/oidc-tenant';
import { UpstreamOp } from './support/upstream-op';

/**
 * The routing end to end, in Chromium: an openid-client application's authorization request → our
 * hosted login, where the person types only their work email (a domain verified by a TXT record on a
 * local DNS server) → the company's OpenID provider (panva's oidc-provider in a child process) → back
 * → the application gets a code, and tokens naming the person the directory provisioned over SCIM.
 * A login_hint at such a domain (the application's, or the hosted login's own) skips the email step.
 */
describe('hosted login routing through a real upstream OP: email in, application signed in', () => {
  let t: TestApp;
  let op: UpstreamOp;
  let dns: TestDnsServer;
  let browser: Browser;
  beforeAll(async () => {
    dns = await startDnsServer();
    [t, op] = await Promise.all([
      createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true', SSO_DNS_SERVERS: dns.address }),
      UpstreamOp.start(),
    ]);
  });
  afterAll(async () => {
    await op?.stop();
    await t?.close();
    await dns?.close();
  });
  withChromium((started) => (browser = started));

  /** A tenant whose connection serves a verified domain, a person provisioned there and their account at the OP. */
  async function aRoutedPerson() {
    const tenant = await anOidcTenant(t, op.issuer);
    await op.registerClient({ client_id: tenant.clientId, client_secret: tenant.clientSecret, redirect_uris: [tenant.redirectUri] });
    const domain = `acme-${randomBytes(4).toString('hex')}.example`;
    const updated = await t
      .http()
      .patch(`/developer/external-providers/${tenant.connectionId}/`)
      .set(tenant.dev.auth)
      .send({ domains: [domain] })
      .expect(200);
    const [record] = updated.body.domain_verifications as { txt_record_name: string; txt_record_value: string }[];
    dns.publishTxt(record.txt_record_name, record.txt_record_value);
    await t.http().post(`/developer/external-providers/${tenant.connectionId}/domains/${domain}/verify`).set(tenant.dev.auth).expect(200);

    const email = `ada@${domain}`;
    const scimId = await provision(tenant, email);
    const sub = `00u${randomBytes(8).toString('hex')}`;
    await op.setAccount(sub, { password: 'upstream-password-1', email, email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });
    return { tenant, email, scimId, sub };
  }

  /** openid-client's authorization request for the tenant's application, and how to redeem its answer. */
  async function anAuthorization(tenant: OidcTenant, extra: Record<string, string> = {}) {
    const config = await oidc.discovery(
      new URL(t.baseUrl),
      tenant.app.client_id,
      undefined,
      oidc.ClientSecretBasic(tenant.app.client_secret!),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const [nonce, state] = [oidc.randomNonce(), oidc.randomState()];
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
      ...extra,
    });
    const redeem = async (landed: string) =>
      (
        await oidc.authorizationCodeGrant(config, new URL(landed), {
          pkceCodeVerifier: verifier,
          expectedNonce: nonce,
          expectedState: state,
        })
      ).claims();
    return { url, redeem };
  }

  /** A browser whose application callback is answered in the browser (the app is not served). */
  async function aBrowserPage() {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('https://app.example.test/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'app callback' }),
    );
    return { context, page };
  }

  /** The company's own form, then straight back to the application with a code. */
  async function signInAtTheIdp(page: Page, sub: string): Promise<string> {
    await page.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`), { timeout: BROWSER_STEP_CEILING_MS });
    await page.getByLabel('Username').fill(sub);
    await page.getByLabel('Password').fill('upstream-password-1');
    await page.getByRole('button', { name: 'Sign in to Acme' }).click();
    await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI), { timeout: BROWSER_STEP_CEILING_MS });
    return page.url();
  }

  it("signs a SCIM-provisioned person in to the application with their company's IdP, no password of ours, next kept", async () => {
    const { tenant, email, scimId, sub } = await aRoutedPerson();
    const authorization = await anAuthorization(tenant);
    const { context, page } = await aBrowserPage();
    try {
      await page.goto(authorization.url.href);
      await page.waitForURL((url) => url.pathname === '/auth/login/', { timeout: BROWSER_STEP_CEILING_MS });
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Sign in' }).click();

      const claims = await authorization.redeem(await signInAtTheIdp(page, sub));
      // The person the directory provisioned (the SCIM id is our sub), signed in by the company: amr fed, no second account.
      expect(claims).toMatchObject({ sub: scimId, email, email_verified: true, amr: ['fed'] });
      expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([scimId]);
    } finally {
      await context.close();
    }
  });

  it("an application's login_hint at a verified domain skips the email step: the browser goes from the app straight to the company's IdP", async () => {
    const { tenant, email, scimId, sub } = await aRoutedPerson();
    const authorization = await anAuthorization(tenant, { login_hint: email.toUpperCase() });
    const { context, page } = await aBrowserPage();
    const hostedForms: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/auth/login/' && response.status() === 200) hostedForms.push(response.url());
    });
    try {
      await page.goto(authorization.url.href);
      const claims = await authorization.redeem(await signInAtTheIdp(page, sub));
      expect(claims).toMatchObject({ sub: scimId, email, amr: ['fed'] });
      // No page of ours asked for the email: the hosted login answered the hint with a redirect.
      expect(hostedForms).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("the hosted login's own login_hint routes the same way, and a hint the workspace has not verified shows the form with it filled in", async () => {
    const { tenant, email, scimId, sub } = await aRoutedPerson();
    const { context, page } = await aBrowserPage();
    try {
      await page.goto(`${t.baseUrl}/auth/login/?workspace_id=${tenant.ws.id}&login_hint=${encodeURIComponent(email)}`);
      await page.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`), { timeout: BROWSER_STEP_CEILING_MS });
      await page.getByLabel('Username').fill(sub);
      await page.getByLabel('Password').fill('upstream-password-1');
      await page.getByRole('button', { name: 'Sign in to Acme' }).click();
      // With no application to continue to, the hosted login says who signed in.
      await page.getByRole('heading', { name: "You're signed in" }).waitFor({ timeout: BROWSER_STEP_CEILING_MS });
      expect(await page.textContent('body')).toContain(email);
      expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([scimId]);
    } finally {
      await context.close();
    }

    // Another workspace, where that domain is not verified: the form, with the address filled in, asks for a password.
    const other = await anOidcTenant(t, op.issuer);
    const elsewhere = await aBrowserPage();
    try {
      await elsewhere.page.goto(`${t.baseUrl}/auth/login/?workspace_id=${other.ws.id}&login_hint=${encodeURIComponent(email)}`);
      await elsewhere.page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: BROWSER_STEP_CEILING_MS });
      expect(new URL(elsewhere.page.url()).pathname).toBe('/auth/login/');
      expect(await elsewhere.page.getByLabel('Email').inputValue()).toBe(email);
    } finally {
      await elsewhere.context.close();
    }
  });
});
