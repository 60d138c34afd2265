import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { withMailingApp } from '../support/mailing-app';
import type { SmtpReceiver } from '../support/smtp-receiver';
import { anEndUser } from '../end-users/support';
import { anApplication, aPkcePair, aSignedInBrowser, authorizeQuery, redirectParams, type TestApplication } from './support';

const BROWSER_PATHS = ['/oauth/token', '/oauth/userinfo', '/oauth/revoke', '/oauth/introspect'];
const PUBLIC_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/oauth/jwks'];

/** A single-page application's own origin: a page served on another loopback origin than the service's. */
async function aPageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>SPA</title>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

describe('OpenID provider: CORS for browser applications', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let spa: { server: Server; origin: string };
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));
  beforeAll(async () => {
    spa = await aPageServer();
  });
  afterAll(async () => {
    await new Promise((resolve) => spa.server.close(resolve));
  });

  it('lets any origin read discovery and the JWKS, without credentials', async () => {
    for (const path of PUBLIC_PATHS) {
      const res = await t.http().get(path).set('Origin', 'https://anyone.example').expect(200);
      expect({ path, allow: res.headers['access-control-allow-origin'], creds: res.headers['access-control-allow-credentials'] }).toEqual({
        path,
        allow: '*',
        creds: undefined,
      });
    }
  });

  it("answers the preflight and the request of a registered redirect URI's origin, never with credentials, and nothing for another origin", async () => {
    const origin = 'https://spa.cors.example';
    await anApplication(t, { client_type: 'public', redirect_uris: [`${origin}/callback`] });
    for (const path of BROWSER_PATHS) {
      const preflight = await t
        .http()
        .options(path)
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization, content-type')
        .expect(204);
      expect({
        path,
        allow: preflight.headers['access-control-allow-origin'],
        methods: preflight.headers['access-control-allow-methods'],
        headers: preflight.headers['access-control-allow-headers'],
        creds: preflight.headers['access-control-allow-credentials'],
      }).toEqual({
        path,
        allow: origin,
        methods: expect.stringContaining('POST'),
        headers: expect.stringMatching(/Authorization/i),
        creds: undefined,
      });

      const stranger = await t
        .http()
        .options(path)
        .set('Origin', 'https://stranger.example')
        .set('Access-Control-Request-Method', 'POST')
        .expect(204);
      expect({ path, allow: stranger.headers['access-control-allow-origin'] }).toEqual({ path, allow: undefined });
    }
    const refused = await t.http().post('/oauth/token').set('Origin', origin).type('form').send({ grant_type: 'refresh_token' });
    expect(refused.headers['access-control-allow-origin']).toBe(origin);
    expect(refused.headers['access-control-allow-credentials']).toBeUndefined();
    expect(refused.headers.vary).toMatch(/Origin/);
  });

  it('lets a single-page application in Chromium exchange its code, read UserInfo and revoke from its own origin', async () => {
    const redirectUri = `${spa.origin}/callback`;
    const { app } = await anApplication(t, { client_type: 'public', redirect_uris: [redirectUri] });
    const user = await anEndUser(t, app as never, { smtp });
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const code = await aCodeFor(agent, app, pkce, redirectUri);

    const page = await (await browser.newContext()).newPage();
    await page.goto(`${spa.origin}/`);
    const outcome = await page.evaluate(
      async ({ base, clientId, code, verifier, redirectUri }) => {
        const discovery = await (await fetch(`${base}/.well-known/openid-configuration`)).json();
        const jwks = await (await fetch(discovery.jwks_uri)).json();
        const tokenRes = await fetch(discovery.token_endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            code_verifier: verifier,
            redirect_uri: redirectUri,
            client_id: clientId,
          }),
        });
        const tokens = await tokenRes.json();
        const info = await fetch(discovery.userinfo_endpoint, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
        const revoke = await fetch(discovery.revocation_endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }),
        });
        return { keys: jwks.keys.length, token: tokenRes.status, sub: (await info.json()).sub, revoke: revoke.status };
      },
      { base: t.baseUrl, clientId: app.client_id, code, verifier: pkce.verifier, redirectUri },
    );
    expect(outcome).toEqual({ keys: expect.any(Number), token: 200, sub: user.id, revoke: 200 });
    expect(outcome.keys).toBeGreaterThan(0);

    // Another origin's page gets nothing it can read: the browser blocks the answer.
    const other = await aPageServer();
    try {
      await page.goto(`${other.origin}/`);
      const blocked = await page.evaluate(async (base) => {
        try {
          await fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) });
          return 'read';
        } catch {
          return 'blocked';
        }
      }, t.baseUrl);
      expect(blocked).toBe('blocked');
    } finally {
      await page.context().close();
      await new Promise((resolve) => other.server.close(resolve));
    }
  });

  async function aCodeFor(
    agent: Awaited<ReturnType<typeof aSignedInBrowser>>,
    app: TestApplication,
    pkce: ReturnType<typeof aPkcePair>,
    redirectUri: string,
  ) {
    const res = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { redirect_uri: redirectUri })}`).expect(302);
    return redirectParams(res.headers.location).get('code')!;
  }
});
