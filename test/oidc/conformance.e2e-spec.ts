import type { Browser, BrowserContext, Frame, Page, Request } from 'playwright-core';
import * as oidc from 'openid-client';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { Clock } from '../../src/common/clock';
import type { TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { withMailingApp } from '../support/mailing-app';
import type { SmtpReceiver } from '../support/smtp-receiver';
import { anEndUser, type TestEndUser } from '../end-users/support';
import { anApplication, REDIRECT_URI, type TestApplication } from './support';

const POST_LOGOUT_URI = 'https://app.example.test/signed-out';
/** The application's origin: never served (it does not resolve); the browser's request for it is the answer. */
const APP_ORIGIN = 'https://app.example.test/';
const toApp = (r: Request) => r.isNavigationRequest() && r.url().startsWith(APP_ORIGIN);

/** Where a browser step ended: at the client's redirect URI, on the hosted login, or on an error page of the service. */
type Landing = { at: 'callback'; url: URL } | { at: 'login'; url: URL } | { at: 'page'; status: number; text: string; url: URL };

/**
 * The OpenID Foundation conformance suite's Basic OP, Config OP and RP-initiated logout modules,
 * re-enacted as the suite sends them: a confidential client with client_secret_basic (and
 * client_secret_post where the module says so) registered with require_pkce false, so no module
 * sends PKCE except oidcc-ensure-request-with-valid-pkce-succeeds; openid-client is the relying
 * party, Chromium the person's browser (one for the whole suite, as the suite's tester keeps one; each
 * module opens its own tab in it). Each test is named for its module; what it asserts is what the module checks.
 */
describe('OpenID Foundation conformance modules (Basic OP, Config OP, RP-initiated logout) without PKCE', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let app: TestApplication;
  let user: TestEndUser;
  let config: oidc.Configuration;
  let context: BrowserContext;
  let page: Page;
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));

  beforeAll(async () => {
    ({ app } = await anApplication(t, { require_pkce: false, post_logout_redirect_uris: [POST_LOGOUT_URI] }));
    user = await anEndUser(t, app as never, { smtp, firstName: 'Ada' });
    config = await relyingParty(oidc.ClientSecretBasic(app.client_secret!));
    context = await browser.newContext();
  });
  afterAll(async () => {
    await context?.close();
  });
  // A tab per module in the one browser (its session cookie is the context's): nothing one module's page still does can land on the next one's.
  beforeEach(async () => {
    page = await context.newPage();
  });
  afterEach(async () => {
    await page?.close();
  });

  function relyingParty(auth: oidc.ClientAuth): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(t.baseUrl), app.client_id, undefined, auth, { execute: [oidc.allowInsecureRequests] });
  }

  async function aBrowser(): Promise<{ context: BrowserContext; page: Page }> {
    const fresh = await browser.newContext();
    return { context: fresh, page: await fresh.newPage() };
  }

  /** Runs a browser step and answers the application URL the browser was sent to by it, once the browser has settled on its error page for it. */
  async function arrivalAtApp(on: Page, step: () => Promise<unknown>): Promise<URL> {
    const arrival = on.waitForRequest(toApp);
    const errorPage = theErrorPage(on);
    await step().catch(() => undefined);
    const url = new URL((await arrival).url());
    await errorPage;
    return url;
  }

  /**
   * The main frame's next document, watched from the moment this is called (before the step that navigates): a page
   * of the service, or the browser's own error page for the application's address, which does not resolve. That error
   * page commits after the navigation has failed, so a step that does not wait for it can see its `goto` interrupted
   * by it; and the page's current URL cannot tell, since the previous step may have left the page on an error page too.
   */
  function nextDocument(on: Page, where: (url: string) => boolean = () => true): Promise<Frame> {
    const committed = on.waitForEvent('framenavigated', { predicate: (frame) => frame === on.mainFrame() && where(frame.url()) });
    // Awaited only when the step went there; a page closed before (or a step that went elsewhere) leaves it unanswered.
    committed.catch(() => undefined);
    return committed;
  }

  const theErrorPage = (on: Page) => nextDocument(on, (url) => url.startsWith('chrome-error:'));

  /** Opens `url`; on the hosted login, signs `who` in when given. */
  async function visit(on: Page, url: URL | string, who?: TestEndUser): Promise<Landing> {
    let arrived: URL | null = null;
    const seen = (r: Request) => {
      if (toApp(r)) arrived = new URL(r.url());
    };
    const errorPage = theErrorPage(on);
    on.on('request', seen);
    try {
      const response = await on.goto(String(url)).catch((err: Error) => {
        if (arrived) return null;
        throw err;
      });
      if (arrived) {
        await errorPage;
        return { at: 'callback', url: arrived };
      }
      const landed = new URL(on.url());
      if (landed.pathname === '/auth/login/' && who) return { at: 'callback', url: await signInOnThePage(on, who) };
      if (landed.pathname === '/auth/login/') return { at: 'login', url: landed };
      return { at: 'page', status: response?.status() ?? 0, text: await on.locator('body').innerText(), url: landed };
    } finally {
      on.off('request', seen);
    }
  }

  /** On the hosted login: the person signs in, and the browser is sent to the application. */
  async function signInOnThePage(on: Page = page, who: TestEndUser = user): Promise<URL> {
    if (await on.getByLabel('Email').isEditable()) await on.getByLabel('Email').fill(who.email);
    await on.getByLabel('Password').fill(who.password);
    return arrivalAtApp(on, () => on.getByRole('button', { name: 'Sign in' }).click());
  }

  /** The suite's default request: response_type=code, openid, a nonce and a state, no PKCE. */
  function request(extra: Record<string, string> = {}) {
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', nonce, state, ...extra });
    return { url, nonce, state };
  }

  async function callback(landing: Landing): Promise<URL> {
    if (landing.at !== 'callback') throw new Error(`expected the redirect URI, landed on ${landing.url.href}`);
    return landing.url;
  }

  /** The module's happy path: authorize in the browser (signing in if asked), exchange the code, validate the ID token. */
  async function signIn(extra: Record<string, string> = {}, on: Page = page, rp: oidc.Configuration = config) {
    const { url, nonce, state } = request(extra);
    const landed = await callback(await visit(on, url, user));
    const tokens = await oidc.authorizationCodeGrant(rp, landed, { expectedNonce: nonce, expectedState: state, idTokenExpected: true });
    return { tokens, claims: tokens.claims()!, landed };
  }

  /** The error the authorization endpoint answered on the redirect URI (the suite's CheckErrorFromAuthorizationEndpoint…). */
  async function authorizationError(landing: Landing, state: string): Promise<string> {
    const url = await callback(landing);
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.get('code')).toBeNull();
    return url.searchParams.get('error')!;
  }

  describe('Basic OP', () => {
    it('oidcc-server: code flow, ID token validated by the RP, sub and claims as the spec says', async () => {
      const { tokens, claims } = await signIn();
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(claims).toEqual(
        expect.objectContaining({ iss: t.config.PUBLIC_BASE_URL, aud: app.client_id, sub: user.id, auth_time: expect.any(Number) }),
      );
    });

    it('oidcc-server-client-secret-post: the same flow authenticating with client_secret_post', async () => {
      const rp = await relyingParty(oidc.ClientSecretPost(app.client_secret!));
      const { claims } = await signIn({}, page, rp);
      expect(claims.sub).toBe(user.id);
    });

    it('oidcc-response-type-missing: an error, never a code (invalid_request on the redirect URI)', async () => {
      const { url, state } = request();
      url.searchParams.delete('response_type');
      expect(await authorizationError(await visit(page, url), state)).toMatch(/^(invalid_request|unsupported_response_type)$/);
    });

    it('oidcc-idtoken-signature: the ID token verifies with the key its kid names in the JWKS', async () => {
      const { tokens } = await signIn();
      const jwks = await (await fetch(config.serverMetadata().jwks_uri!)).json();
      const { kid, alg } = decodeProtectedHeader(tokens.id_token!);
      expect(jwks.keys.some((k: { kid: string }) => k.kid === kid)).toBe(true);
      expect(alg).toBe('RS256');
      await expect(jwtVerify(tokens.id_token!, createLocalJWKSet(jwks))).resolves.toBeDefined();
    });

    it('oidcc-idtoken-unsigned: skipped by the suite, since discovery never offers alg none', () => {
      expect(config.serverMetadata().id_token_signing_alg_values_supported).not.toContain('none');
    });

    it('oidcc-userinfo-get, oidcc-userinfo-post-header, oidcc-userinfo-post-body: the same sub as the ID token, each way', async () => {
      const { tokens, claims } = await signIn({ scope: 'openid email' });
      const get = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(get).toEqual(expect.objectContaining({ sub: user.id, email: user.email }));
      const header = await oidc.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL(config.serverMetadata().userinfo_endpoint!),
        'POST',
      );
      expect(await header.json()).toEqual(expect.objectContaining({ sub: user.id }));
      const body = await fetch(config.serverMetadata().userinfo_endpoint!, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ access_token: tokens.access_token }),
      });
      expect(body.status).toBe(200);
      expect(await body.json()).toEqual(expect.objectContaining({ sub: user.id }));
    });

    it('oidcc-ensure-post-request-succeeds: the same request sent as a form POST from another site answers a code', async () => {
      const { url, nonce, state } = request();
      const { context: fresh, page: on } = await aBrowser();
      try {
        // The suite's own page posts the form: a cross-site POST, so the browser's Lax session cookie stays home.
        await on.setContent('<form method="post"></form>');
        const posted = on.locator('form').evaluate(
          (form: HTMLFormElement, { action, params }) => {
            form.action = action;
            for (const [name, value] of params) {
              form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
            }
            form.submit();
          },
          { action: `${url.origin}${url.pathname}`, params: [...url.searchParams] },
        );
        await posted;
        await on.waitForURL((u) => u.pathname === '/auth/login/');
        const landed = await signInOnThePage(on, user);
        const tokens = await oidc.authorizationCodeGrant(config, landed, {
          expectedNonce: nonce,
          expectedState: state,
          idTokenExpected: true,
        });
        expect(tokens.claims()!.sub).toBe(user.id);
      } finally {
        await fresh.close();
      }
    });

    it('oidcc-ensure-request-without-nonce-succeeds-for-code-flow: refused by the PKCE policy (decision 0930), a request with neither PKCE nor nonce', async () => {
      const { url, state } = request();
      url.searchParams.delete('nonce');
      expect(await authorizationError(await visit(page, url), state)).toBe('invalid_request');
    });

    it.each([
      ['oidcc-scope-profile', 'openid profile', ['given_name', 'name'], 'openid profile'],
      ['oidcc-scope-email', 'openid email', ['email', 'email_verified'], 'openid email'],
      ['oidcc-scope-address', 'openid address', [], 'openid'],
      ['oidcc-scope-phone', 'openid phone', [], 'openid'],
      ['oidcc-scope-all', 'openid profile email address phone', ['email', 'given_name'], 'openid profile email'],
      ['oidcc-ensure-other-scope-order-succeeds', 'email openid', ['email'], 'email openid'],
    ])('%s: the request succeeds and the claims follow the scope granted', async (_module, scope, present, granted) => {
      const { tokens, claims } = await signIn({ scope });
      expect(tokens.scope).toBe(granted);
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      for (const claim of present) expect({ claim, there: claim in info }).toEqual({ claim, there: true });
      expect(info).not.toHaveProperty('address');
      expect(info).not.toHaveProperty('phone_number');
    });

    it.each([
      ['oidcc-display-page', { display: 'page' }],
      ['oidcc-display-popup', { display: 'popup' }],
      ['oidcc-ensure-request-with-unknown-parameter-succeeds', { extra: 'foobar' }],
      ['oidcc-ui-locales', { ui_locales: 'se' }],
      ['oidcc-claims-locales', { claims_locales: 'se' }],
      ['oidcc-ensure-request-with-acr-values-succeeds', { acr_values: '1 2' }],
      ['oidcc-claims-essential', { claims: JSON.stringify({ userinfo: { name: { essential: true } } }) }],
      ['oidcc-login-hint', { login_hint: 'someone@example.test' }],
    ])('%s: the extra parameter does not stop the flow', async (_module, extra) => {
      const { claims } = await signIn(extra as Record<string, string>);
      expect(claims.sub).toBe(user.id);
    });

    it('oidcc-ensure-request-with-valid-pkce-succeeds: PKCE still works for a client that does not require it', async () => {
      const verifier = oidc.randomPKCECodeVerifier();
      const { url, nonce, state } = request({
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const landed = await callback(await visit(page, url, user));
      const tokens = await oidc.authorizationCodeGrant(config, landed, {
        pkceCodeVerifier: verifier,
        expectedNonce: nonce,
        expectedState: state,
      });
      expect(tokens.claims()!.sub).toBe(user.id);
    });

    it('oidcc-prompt-login: the person signs in again, and auth_time moves', async () => {
      const first = await signIn();
      // auth_time has whole seconds: the service's clock moves a second on instead of the test sleeping.
      const clock = t.get<Clock>(Clock);
      clock.advance(1000);
      try {
        const { url, nonce, state } = request({ prompt: 'login' });
        expect((await visit(page, url)).at).toBe('login');
        const landed = await signInOnThePage();
        const tokens = await oidc.authorizationCodeGrant(config, landed, { expectedNonce: nonce, expectedState: state });
        expect(tokens.claims()!.auth_time).toBeGreaterThan(first.claims.auth_time!);
      } finally {
        clock.advance(-1000);
      }
    });

    it('oidcc-prompt-none-not-logged-in: login_required on the redirect URI, without PKCE', async () => {
      const stranger = await aBrowser();
      try {
        const { url, state } = request({ prompt: 'none' });
        expect(await authorizationError(await visit(stranger.page, url), state)).toBe('login_required');
      } finally {
        await stranger.context.close();
      }
    });

    it('oidcc-prompt-none-logged-in: a code at once for the signed-in browser', async () => {
      await signIn();
      const { claims } = await signIn({ prompt: 'none' });
      expect(claims.sub).toBe(user.id);
    });

    it('oidcc-max-age-1: a session older than a second signs in again; auth_time says so', async () => {
      const first = await signIn();
      t.get<Clock>(Clock).advance(1500);
      try {
        const { url, nonce, state } = request({ max_age: '1' });
        expect((await visit(page, url)).at).toBe('login');
        const landed = await signInOnThePage();
        const tokens = await oidc.authorizationCodeGrant(config, landed, {
          expectedNonce: nonce,
          expectedState: state,
          maxAge: 1,
        });
        expect(tokens.claims()!.auth_time).toBeGreaterThan(first.claims.auth_time!);
      } finally {
        t.get<Clock>(Clock).advance(-1500);
      }
    });

    it('oidcc-max-age-10000: no new sign-in; auth_time unchanged', async () => {
      const first = await signIn();
      const { claims } = await signIn({ max_age: '10000' });
      expect(claims.auth_time).toBe(first.claims.auth_time);
    });

    it('oidcc-id-token-hint: prompt=none with the ID token of the signed-in person answers a code for the same sub', async () => {
      const first = await signIn();
      const { claims } = await signIn({ prompt: 'none', id_token_hint: first.tokens.id_token! });
      expect(claims.sub).toBe(first.claims.sub);
    });

    it('oidcc-codereuse and oidcc-codereuse-30seconds: a code works once; presented again (also 30 s later) it fails and its tokens die', async () => {
      for (const later of [0, 30_000]) {
        const { url, nonce, state } = request();
        const landed = await callback(await visit(page, url, user));
        const tokens = await oidc.authorizationCodeGrant(config, landed, { expectedNonce: nonce, expectedState: state });
        t.get<Clock>(Clock).advance(later);
        try {
          await expect(oidc.authorizationCodeGrant(config, landed, { expectedNonce: nonce, expectedState: state })).rejects.toMatchObject({
            error: 'invalid_grant',
          });
          await expect(oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).rejects.toThrow();
        } finally {
          t.get<Clock>(Clock).advance(-later);
        }
      }
    });

    it('oidcc-ensure-registered-redirect-uri: an error page, never a redirect to the unregistered URI', async () => {
      const { url } = request({ redirect_uri: 'https://app.example.test/not-registered' });
      const landing = await visit(page, url);
      expect(landing).toEqual(expect.objectContaining({ at: 'page', status: 400 }));
    });

    it.each([
      [
        'oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported',
        'request_uri',
        'https://app.example.test/request.jwt',
        'request_uri_not_supported',
      ],
      [
        'oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported',
        'request',
        'eyJhbGciOiJub25lIn0.e30.',
        'request_not_supported',
      ],
      ['oidcc-ensure-request-object-with-redirect-uri', 'request', 'eyJhbGciOiJub25lIn0.e30.', 'request_not_supported'],
    ])('%s: rejected as unsupported on the redirect URI', async (_module, name, value, error) => {
      const { url, state } = request({ [name]: value });
      expect(await authorizationError(await visit(page, url), state)).toBe(error);
      expect(config.serverMetadata().request_parameter_supported ?? false).toBe(false);
    });

    it('oidcc-refresh-token: a refresh answers a new ID token for the same sub, and the spent refresh token fails', async () => {
      const { tokens, claims } = await signIn({ scope: 'openid offline_access' });
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.claims()).toEqual(
        expect.objectContaining({ sub: claims.sub, iss: claims.iss, aud: claims.aud, auth_time: claims.auth_time }),
      );
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('Config OP', () => {
    it('oidcc-discovery-endpoint-verification: the document names this issuer and every required endpoint', async () => {
      const meta = config.serverMetadata();
      expect(meta.issuer).toBe(t.config.PUBLIC_BASE_URL);
      for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint'] as const) {
        expect({ key, url: meta[key]?.startsWith(t.config.PUBLIC_BASE_URL) }).toEqual({ key, url: true });
      }
      expect(meta.response_types_supported).toContain('code');
      expect(meta.subject_types_supported).toContain('public');
      expect(meta.id_token_signing_alg_values_supported).toContain('RS256');
      expect(meta.scopes_supported).toContain('openid');
      const jwks = await (await fetch(meta.jwks_uri!)).json();
      expect(jwks.keys.every((k: { kid?: string; use?: string; d?: string }) => k.kid && k.d === undefined)).toBe(true);
    });

    it('oidcc-idtoken-rs256: ID tokens are RS256 by default', async () => {
      const { tokens } = await signIn();
      expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
    });
  });

  describe('RP-initiated logout', () => {
    /** A browser signed in, and the ID token of that sign-in. */
    async function signedIn() {
      const own = await aBrowser();
      const { tokens } = await signIn({}, own.page);
      return { ...own, idToken: tokens.id_token! };
    }

    /** Whether the browser still holds a session: prompt=none answers a code, or login_required. */
    async function stillSignedIn(on: Page): Promise<boolean> {
      const { url } = request({ prompt: 'none' });
      const landed = await callback(await visit(on, url));
      return landed.searchParams.has('code');
    }

    const endSession = (params: Record<string, string>) => oidc.buildEndSessionUrl(config, params);

    it('oidcc-rp-initiated-logout: back to post_logout_redirect_uri with state, signed out', async () => {
      const b = await signedIn();
      try {
        const landing = await visit(
          b.page,
          endSession({ id_token_hint: b.idToken, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'bye' }),
        );
        const back = await callback(landing);
        expect(`${back.origin}${back.pathname}`).toBe(POST_LOGOUT_URI);
        expect(back.searchParams.get('state')).toBe('bye');
        expect(await stillSignedIn(b.page)).toBe(false);
      } finally {
        await b.context.close();
      }
    });

    it('oidcc-rp-initiated-logout-no-state: back to post_logout_redirect_uri without state', async () => {
      const b = await signedIn();
      try {
        const back = await callback(
          await visit(b.page, endSession({ id_token_hint: b.idToken, post_logout_redirect_uri: POST_LOGOUT_URI })),
        );
        expect(back.searchParams.has('state')).toBe(false);
        expect(await stillSignedIn(b.page)).toBe(false);
      } finally {
        await b.context.close();
      }
    });

    it('oidcc-rp-initiated-logout-only-state and -no-post-logout-redirect-uri: signed out on the service’s own page', async () => {
      for (const params of [{ id_token_hint: 'x', state: 's' }, { id_token_hint: 'x' }] as Record<string, string>[]) {
        const b = await signedIn();
        try {
          const landing = await visit(b.page, endSession({ ...params, id_token_hint: b.idToken }));
          expect(landing).toEqual(expect.objectContaining({ at: 'page', status: 200 }));
          expect(await stillSignedIn(b.page)).toBe(false);
        } finally {
          await b.context.close();
        }
      }
    });

    it('oidcc-rp-initiated-logout-no-params and -no-id-token-hint: the person confirms before being signed out', async () => {
      for (const params of [{}, { client_id: app.client_id, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'c' }] as Record<
        string,
        string
      >[]) {
        const b = await signedIn();
        try {
          const landing = await visit(b.page, endSession(params));
          expect(landing).toEqual(expect.objectContaining({ at: 'page', status: 200 }));
          expect(await stillSignedIn(b.page)).toBe(true);
          await visit(b.page, endSession(params));
          const answered = b.page.waitForResponse((r) => r.url().includes('/oauth/logout') && r.request().method() === 'POST');
          // The confirmation ends on the signed-out page or at post_logout_redirect_uri (the browser's error page): either way, a new document.
          const after = nextDocument(b.page);
          await b.page.getByRole('button', { name: /sign out/i }).click();
          expect((await answered).status()).toBeLessThan(400);
          await after;
          expect(await stillSignedIn(b.page)).toBe(false);
        } finally {
          await b.context.close();
        }
      }
    });

    it.each([
      ['oidcc-rp-initiated-logout-bad-post-logout-redirect-uri', { post_logout_redirect_uri: 'https://app.example.test/unregistered' }],
      ['oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri', { post_logout_redirect_uri: `${POST_LOGOUT_URI}?foo=bar` }],
      ['oidcc-rp-initiated-logout-modified-id-token-hint', { modified: '1' }],
      ['oidcc-rp-initiated-logout-bad-id-token-hint', { id_token_hint: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' }],
    ])('%s: an error page, no redirect, still signed in', async (_module, change) => {
      const b = await signedIn();
      try {
        const { modified, ...rest } = change as Record<string, string>;
        const hint = modified ? `${b.idToken.slice(0, -6)}AAAAAA` : b.idToken;
        const landing = await visit(
          b.page,
          endSession({ id_token_hint: hint, post_logout_redirect_uri: POST_LOGOUT_URI, state: 's', ...rest }),
        );
        expect(landing).toEqual(expect.objectContaining({ at: 'page', status: 400 }));
        expect(await stillSignedIn(b.page)).toBe(true);
      } finally {
        await b.context.close();
      }
    });
  });
});
