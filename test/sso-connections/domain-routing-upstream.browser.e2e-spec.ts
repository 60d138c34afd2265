import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import * as oidc from 'openid-client';
import { REDIRECT_URI } from '../oidc/support';
import { createTestApp, TestApp } from '../support/app';
import { BROWSER_STEP_CEILING_MS, withChromium } from '../support/browser';
import { startDnsServer, TestDnsServer } from './support/dns-server';
import { accountsWithEmail, anOidcTenant, provision } from './support/oidc-tenant';
import { UpstreamOp } from './support/upstream-op';

/**
 * The routing end to end, in Chromium: an openid-client application's authorization request → our
 * hosted login, where the person types only their work email (a domain verified by a TXT record on a
 * local DNS server) → the company's OpenID provider (panva's oidc-provider in a child process) → back
 * → the application gets a code, and tokens naming the person the directory provisioned over SCIM.
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

  it("signs a SCIM-provisioned person in to the application with their company's IdP, no password of ours, next kept", async () => {
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
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.route('https://app.example.test/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'app callback' }),
      );
      await page.goto(authorize.href);
      await page.waitForURL((url) => url.pathname === '/auth/login/', { timeout: BROWSER_STEP_CEILING_MS });
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Sign in' }).click();

      // The company's own form, then straight back to the application with a code.
      await page.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`), { timeout: BROWSER_STEP_CEILING_MS });
      await page.getByLabel('Username').fill(sub);
      await page.getByLabel('Password').fill('upstream-password-1');
      await page.getByRole('button', { name: 'Sign in to Acme' }).click();
      await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI), { timeout: BROWSER_STEP_CEILING_MS });

      const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
        pkceCodeVerifier: verifier,
        expectedNonce: nonce,
        expectedState: state,
      });
      // The person the directory provisioned (the SCIM id is our sub), signed in by the company: amr fed, no second account.
      expect(tokens.claims()).toMatchObject({ sub: scimId, email, email_verified: true, amr: ['fed'] });
      expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([scimId]);
    } finally {
      await context.close();
    }
  });
});
