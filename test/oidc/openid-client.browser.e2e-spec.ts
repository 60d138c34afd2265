import type { Browser, Page } from 'playwright-core';
import * as oidc from 'openid-client';
import * as oauth from 'oauth4webapi';
import type { TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { withMailingApp } from '../support/mailing-app';
import type { SmtpReceiver } from '../support/smtp-receiver';
import { anEndUser, TestEndUser } from '../end-users/support';
import { anApplication, aSignedInBrowser, REDIRECT_URI, TestApplication } from './support';

/**
 * Independent relying parties against the running service: openid-client (certified) through the
 * real hosted login in Chromium, and oauth4webapi for a second, browserless RP.
 */
describe('OpenID Connect with independent relying parties', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));

  async function relyingParty(app: TestApplication): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(t.baseUrl), app.client_id, undefined, oidc.ClientSecretBasic(app.client_secret!), {
      execute: [oidc.allowInsecureRequests],
    });
  }

  /** Goes to the authorization URL in Chromium, signs in on the hosted login, and answers where the browser landed. */
  async function signInThroughBrowser(page: Page, url: URL, user: TestEndUser): Promise<URL> {
    // The application's callback is not served here: the browser's arrival there is the answer.
    await page.route('https://app.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback' }));
    await page.goto(url.href);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((landed) => landed.href.startsWith(REDIRECT_URI));
    return new URL(page.url());
  }

  it('discovery → authorize → hosted login → code → tokens → validated ID token → UserInfo → refresh → revocation', async () => {
    const { app } = await anApplication(t);
    const user = await anEndUser(t, app as never, { smtp, firstName: 'Ada' });
    const config = await relyingParty(app);
    expect(config.serverMetadata().issuer).toBe(t.config.PUBLIC_BASE_URL);

    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    const context = await browser.newContext();
    const landed = await signInThroughBrowser(await context.newPage(), url, user);
    await context.close();

    const tokens = await oidc.authorizationCodeGrant(config, landed, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    const claims = tokens.claims()!;
    expect(claims).toEqual(expect.objectContaining({ sub: user.id, email: user.email, email_verified: true, given_name: 'Ada' }));

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toEqual(expect.objectContaining({ sub: user.id, email: user.email }));

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()!.sub).toBe(user.id);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow();
  });

  it('rejects, in the relying party, an ID token answering a stale nonce', async () => {
    const { app } = await anApplication(t);
    const user = await anEndUser(t, app as never, { smtp });
    const config = await relyingParty(app);
    const agent = await aSignedInBrowser(t, user);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce: 'nonce-of-an-earlier-request',
      state: 's',
    });
    const res = await agent.get(`${url.pathname}${url.search}`).expect(302);
    const refused = await oidc
      .authorizationCodeGrant(config, new URL(res.headers.location), {
        pkceCodeVerifier: verifier,
        expectedNonce: oidc.randomNonce(),
        expectedState: 's',
      })
      .then(
        () => null,
        (err: unknown) => err as Error & { cause?: { message?: string } },
      );
    // openid-client wraps oauth4webapi's check: 'unexpected ID Token "nonce" claim value'.
    expect(refused?.cause?.message).toMatch(/"nonce" claim/);
  });

  it('completes the flow with oauth4webapi as a second relying party (public client, PKCE only)', async () => {
    const { app } = await anApplication(t, { client_type: 'public' });
    const user = await anEndUser(t, app as never, { smtp });
    const issuer = new URL(t.baseUrl);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', [oauth.allowInsecureRequests]: true }),
    );
    const client: oauth.Client = { client_id: app.client_id };
    const verifier = oauth.generateRandomCodeVerifier();
    const authorize = new URL(as.authorization_endpoint!);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'rp2',
    });
    const agent = await aSignedInBrowser(t, user);
    const res = await agent.get(`${authorize.pathname}?${query}`).expect(302);
    const params = oauth.validateAuthResponse(as, client, new URL(res.headers.location), 'rp2');
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, {
      [oauth.allowInsecureRequests]: true,
    });
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, { requireIdToken: true });
    expect(oauth.getValidatedIdTokenClaims(result)!.sub).toBe(user.id);
  });
});
