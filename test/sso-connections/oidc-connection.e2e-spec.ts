import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import * as oidc from 'openid-client';
import { REDIRECT_URI } from '../oidc/support';
import { createTestApp, TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { accountsWithEmail, anOidcTenant, attempts, auditRows, OidcTenant, provision, setActive } from './support/oidc-tenant';
import { UpstreamOp } from './support/upstream-op';

type Outcome =
  | { kind: 'tokens'; claims: oidc.IDToken; upstreamAuthorize: URL }
  | { kind: 'refused'; status: number; text: string; upstreamAuthorize: URL };

/**
 * The whole OIDC enterprise-SSO path in Chromium against a real upstream OP (panva's oidc-provider
 * in a child process): an openid-client application's authorization request → our hosted login →
 * `GET /auth/sso/{id}/` → the upstream's login form → our callback → the application gets tokens
 * whose `sub` is the person the company's directory provisioned over SCIM.
 */
describe('SSO connections: OIDC sign-in through a real upstream OP, in Chromium', () => {
  let t: TestApp;
  let op: UpstreamOp;
  let browser: Browser;
  beforeAll(async () => {
    [t, op] = await Promise.all([createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' }), UpstreamOp.start()]);
  });
  afterAll(async () => {
    await op?.stop();
    await t?.close();
  });
  withChromium((started) => (browser = started));

  const password = 'upstream-password-1';
  const anEmail = (label: string) => `${label}.${randomBytes(4).toString('hex')}@acme.example`;
  const aSubject = () => `00u${randomBytes(8).toString('hex')}`;

  async function connected(settings: { jit?: boolean; trust_upstream_mfa?: boolean } = {}, base?: OidcTenant): Promise<OidcTenant> {
    const tenant = await anOidcTenant(t, op.issuer, settings, base);
    await op.registerClient({ client_id: tenant.clientId, client_secret: tenant.clientSecret, redirect_uris: [tenant.redirectUri] });
    return tenant;
  }

  /** An upstream account (its login name is its subject) with a verified email unless said otherwise. */
  async function upstreamAccount(email: string, claims: { email_verified?: boolean; amr?: string[] } = {}): Promise<string> {
    const sub = aSubject();
    await op.setAccount(sub, { password, email, email_verified: true, given_name: 'Ada', family_name: 'Lovelace', ...claims });
    return sub;
  }

  async function relyingParty(tenant: OidcTenant): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(t.baseUrl), tenant.app.client_id, undefined, oidc.ClientSecretBasic(tenant.app.client_secret!), {
      execute: [oidc.allowInsecureRequests],
    });
  }

  /**
   * The application's authorization request in a fresh browser, on to the connection from the hosted
   * login, the upstream's form filled as `sub`; the tokens the application gets, or our refusal page.
   * `tamper` may rewrite the upstream's answer on its way back to us (an attacker in the middle).
   */
  async function signIn(
    tenant: OidcTenant,
    sub: string,
    options: { context?: BrowserContext; tamper?: (callback: URL) => URL; prompt?: string } = {},
  ): Promise<Outcome> {
    const config = await relyingParty(tenant);
    const verifier = oidc.randomPKCECodeVerifier();
    const [nonce, state] = [oidc.randomNonce(), oidc.randomState()];
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
      ...(options.prompt ? { prompt: options.prompt } : {}),
    });
    const context = options.context ?? (await browser.newContext());
    try {
      const page = await context.newPage();
      await page.route('https://app.example.test/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'app callback' }),
      );
      const tamper = options.tamper;
      if (tamper) await page.route(`${op.issuer}/interaction/**`, (route) => rewriteAnswer(route, context, tamper));
      await page.goto(authorize.href);
      await page.waitForURL((url) => url.pathname === '/auth/login/');
      const next = new URL(page.url()).searchParams.get('next');
      expect(next).toMatch(/^\/oauth\/authorize/);
      // The hosted login's "sign in with your company" link for this connection.
      const upstreamRequest = page.waitForRequest((req) => req.url().startsWith(`${op.issuer}/auth?`));
      await page.goto(`${t.baseUrl}/auth/sso/${tenant.connectionId}/?${new URLSearchParams({ next: next! })}`);
      const upstreamAuthorize = new URL((await upstreamRequest).url());
      await fillUpstreamForm(page, sub);
      const answered = page.waitForResponse((res) => res.url().includes(`/auth/sso/${tenant.connectionId}/callback`));
      await page.getByRole('button', { name: 'Sign in to Acme' }).click();
      const callback = await answered;
      if (callback.status() >= 300 && callback.status() < 400) {
        await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
        const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
          pkceCodeVerifier: verifier,
          expectedNonce: nonce,
          expectedState: state,
        });
        return { kind: 'tokens', claims: tokens.claims()!, upstreamAuthorize };
      }
      return { kind: 'refused', status: callback.status(), text: await callback.text(), upstreamAuthorize };
    } finally {
      if (!options.context) await context.close();
    }
  }

  /**
   * The upstream's answer passes the browser as redirects (form post → resume → our callback);
   * Playwright routes only the first request, so the test follows the OP's redirects itself with
   * the browser's cookies and hands the browser a rewritten redirect to us.
   */
  async function rewriteAnswer(route: Route, context: BrowserContext, tamper: (callback: URL) => URL) {
    if (route.request().method() !== 'POST') return route.continue();
    let res = await route.fetch({ maxRedirects: 0 });
    let location = res.headers()['location'];
    while (location && !location.startsWith(t.baseUrl)) {
      res = await context.request.get(new URL(location, op.issuer).href, { maxRedirects: 0 });
      location = res.headers()['location'];
    }
    if (!location) throw new Error(`the upstream did not answer with a redirect to us: ${res.status()}`);
    await route.fulfill({ status: 303, headers: { location: tamper(new URL(location)).href } });
  }

  async function fillUpstreamForm(page: Page, sub: string) {
    await page.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`));
    await page.getByLabel('Username').fill(sub);
    await page.getByLabel('Password').fill(password);
  }

  const tokensOf = (outcome: Outcome) => {
    if (outcome.kind !== 'tokens') throw new Error(`expected tokens, got ${outcome.status}: ${outcome.text.slice(0, 500)}`);
    return outcome;
  };
  const refusalOf = (outcome: Outcome) => {
    if (outcome.kind !== 'refused') throw new Error(`expected a refusal, got tokens for ${outcome.claims.sub}`);
    return outcome;
  };
  const lastReason = async (tenant: OidcTenant) => (await attempts(t, tenant))[0]?.reason;

  it('binds the first sign-in to the SCIM-provisioned person by verified email: the application gets their sub, audited with provider_id, by the PKCE/nonce/state code flow', async () => {
    const tenant = await connected();
    const email = anEmail('ada');
    const person = await provision(tenant, email);
    const sub = await upstreamAccount(email);

    const outcome = tokensOf(await signIn(tenant, sub));
    expect(outcome.claims).toMatchObject({ sub: person, email, email_verified: true });
    expect(outcome.claims.amr).toEqual(['fed']);
    // What went to the upstream: the code flow with PKCE (S256), a nonce and a state, to our redirect URI.
    const sent = outcome.upstreamAuthorize.searchParams;
    expect(sent.get('response_type')).toBe('code');
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(sent.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(sent.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(sent.get('redirect_uri')).toBe(tenant.redirectUri);

    const success = (await auditRows(t, tenant, 'login_success')).find((row) => row.metadata.provider_id === tenant.connectionId);
    expect(success).toBeDefined();
    expect(await attempts(t, tenant)).toEqual([expect.objectContaining({ outcome: 'success', subject: sub, email })]);
    expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([person]);
  });

  it('refuses an upstream email that is not verified (email_unverified), with the reason in words', async () => {
    const tenant = await connected();
    const email = anEmail('unverified');
    await provision(tenant, email);
    const sub = await upstreamAccount(email, { email_verified: false });
    const refused = refusalOf(await signIn(tenant, sub));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('did not confirm your email address');
    expect(await lastReason(tenant)).toBe('email_unverified');
    expect((await auditRows(t, tenant, 'login_failure')).map((row) => row.metadata.reason)).toContain('email_unverified');
  });

  it('keeps the same person and sub after the email is renamed at the upstream; deactivation over SCIM then refuses (user_deactivated), reactivation lets them back', async () => {
    const tenant = await connected();
    const email = anEmail('grace');
    const person = await provision(tenant, email);
    const sub = await upstreamAccount(email);
    expect(tokensOf(await signIn(tenant, sub)).claims.sub).toBe(person);

    const renamed = anEmail('grace.hopper');
    await op.setAccount(sub, { email: renamed });
    expect(tokensOf(await signIn(tenant, sub)).claims.sub).toBe(person);
    expect(await accountsWithEmail(t, tenant.ws.id, renamed)).toEqual([]);

    await setActive(tenant, person, false);
    const refused = refusalOf(await signIn(tenant, sub));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Your account has been deactivated');
    expect(await lastReason(tenant)).toBe('user_deactivated');

    await setActive(tenant, person, true);
    expect(tokensOf(await signIn(tenant, sub)).claims.sub).toBe(person);
  });

  it('refuses a person the directory does not know when just-in-time creation is off (user_not_provisioned), creating nobody', async () => {
    const tenant = await connected();
    const email = anEmail('stranger');
    const sub = await upstreamAccount(email);
    const refused = refusalOf(await signIn(tenant, sub));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('has not been set up');
    expect(await lastReason(tenant)).toBe('user_not_provisioned');
    expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([]);
  });

  it('with just-in-time creation on, creates exactly one account: the same subject again, or another subject with the same email, reuses it', async () => {
    const tenant = await connected({ jit: true });
    const email = anEmail('newhire');
    const sub = await upstreamAccount(email);
    const first = tokensOf(await signIn(tenant, sub)).claims.sub;
    expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([first]);
    expect(tokensOf(await signIn(tenant, sub)).claims.sub).toBe(first);
    // A re-hire: the IdP issued a new subject for the same verified address.
    const rehired = await upstreamAccount(email);
    expect(tokensOf(await signIn(tenant, rehired)).claims.sub).toBe(first);
    expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([first]);
  });

  it("refuses an answer whose RFC 9207 iss is not the connection's upstream (issuer_mismatch), and one with no iss at all", async () => {
    const tenant = await connected();
    const email = anEmail('mixup');
    await provision(tenant, email);
    const sub = await upstreamAccount(email);
    const swapped = refusalOf(
      await signIn(tenant, sub, {
        tamper: (url) => {
          url.searchParams.set('iss', 'https://attacker.example');
          return url;
        },
      }),
    );
    expect(swapped.status).toBe(400);
    expect(await lastReason(tenant)).toBe('issuer_mismatch');
    const dropped = refusalOf(
      await signIn(tenant, sub, {
        tamper: (url) => {
          url.searchParams.delete('iss');
          return url;
        },
      }),
    );
    expect(dropped.status).toBe(400);
    expect(await lastReason(tenant)).toBe('issuer_mismatch');
  });

  it("binds the upstream's answer to the browser that started it: another browser gets state_mismatch, the same answer twice response_replayed", async () => {
    const tenant = await connected();
    const email = anEmail('bound');
    const person = await provision(tenant, email);
    const sub = await upstreamAccount(email);
    const victim = await browser.newContext();
    let captured: URL | undefined;
    // The victim's answer is stolen on its way back (never reaches us from the victim).
    const stolen = await signIn(tenant, sub, {
      context: victim,
      tamper: (url) => {
        captured = new URL(url);
        url.searchParams.set('state', 'dropped-by-the-test');
        return url;
      },
    });
    expect(refusalOf(stolen).status).toBe(400);
    const attacker = await browser.newContext();
    const replayed = await (await attacker.newPage()).goto(captured!.href);
    expect(replayed!.status()).toBe(400);
    expect(await replayed!.text()).toContain('started in another browser or tab');
    expect(await lastReason(tenant)).toBe('state_mismatch');
    await attacker.close();

    // The victim's own browser (its cookies) can still use it once; then it is spent.
    const own = await victim.request.get(captured!.href, { maxRedirects: 0 });
    expect(own.status()).toBe(303);
    expect(own.headers()['location']).toMatch(/^(https:\/\/app\.example\.test\/callback\?code=|\/oauth\/authorize)/);
    const again = await victim.request.get(captured!.href, { maxRedirects: 0 });
    expect(again.status()).toBe(400);
    expect(await again.text()).toContain('already used');
    expect(await lastReason(tenant)).toBe('response_replayed');
    await victim.close();
    expect((await attempts(t, tenant)).filter((a) => a.outcome === 'success')).toHaveLength(1);
    expect(await accountsWithEmail(t, tenant.ws.id, email)).toEqual([person]);
  });

  it('still verifies ID tokens after the upstream rotates its signing key (the old key gone from its JWKS)', async () => {
    const tenant = await connected();
    const email = anEmail('rotation');
    const person = await provision(tenant, email);
    const sub = await upstreamAccount(email);
    expect(tokensOf(await signIn(tenant, sub)).claims.sub).toBe(person);
    const kid = await op.rotateKeys();
    expect(await op.jwksKids()).toEqual([kid]);
    expect(tokensOf(await signIn(tenant, sub)).claims.sub).toBe(person);
  });

  it("forces the upstream's sign-in too when the application forces one (prompt=login): the upstream asks for the password despite its session", async () => {
    const tenant = await connected();
    const email = anEmail('forced');
    const person = await provision(tenant, email);
    const sub = await upstreamAccount(email);
    const context = await browser.newContext();
    try {
      const first = tokensOf(await signIn(tenant, sub, { context }));
      expect(first.upstreamAuthorize.searchParams.has('prompt')).toBe(false);
      // The same browser, signed in here and at the upstream: prompt=login goes to the upstream, whose
      // login form (filled by signIn) is shown again instead of its session answering at once.
      const forced = tokensOf(await signIn(tenant, sub, { context, prompt: 'login' }));
      expect(forced.upstreamAuthorize.searchParams.get('prompt')).toBe('login');
      expect(forced.claims.sub).toBe(person);
    } finally {
      await context.close();
    }
  });

  it("counts the upstream's MFA (amr) only where the connection trusts it", async () => {
    const trusting = await connected({ trust_upstream_mfa: true });
    const email = anEmail('mfa');
    const person = await provision(trusting, email);
    const sub = await upstreamAccount(email, { amr: ['pwd', 'mfa'] });
    const trusted = tokensOf(await signIn(trusting, sub)).claims;
    expect(trusted.sub).toBe(person);
    expect(trusted.amr).toEqual(expect.arrayContaining(['fed', 'mfa']));

    const wary = await connected({ trust_upstream_mfa: false });
    const other = anEmail('mfa.ignored');
    await provision(wary, other);
    const otherSub = await upstreamAccount(other, { amr: ['pwd', 'mfa'] });
    expect(tokensOf(await signIn(wary, otherSub)).claims.amr).toEqual(['fed']);
  });
});
