import fc from 'fast-check';
import request from 'supertest';
import { generateKeyPair, SignJWT } from 'jose';
import type { TestApp } from '../support/app';
import { withMailingApp } from '../support/mailing-app';
import type { SmtpReceiver } from '../support/smtp-receiver';
import { aWorkspace, aDeveloper } from '../support/factories';
import { anEndUser } from '../end-users/support';
import {
  aCode,
  anApplication,
  aPkcePair,
  aSignedInBrowser,
  authorizeQuery,
  basic,
  exchange,
  REDIRECT_URI,
  redirectParams,
  signInOn,
  tokenRequest,
  verifiedIdToken,
  type TestApplication,
} from './support';

/** The findings of issue 34 on the authorization endpoint, the client registration and client authentication. */
describe('OpenID provider: PKCE policy, error precedence, hints, scopes, redirect URIs and client credential bytes', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  async function aTenantWithUser(settings: Record<string, unknown> = {}) {
    const tenant = await anApplication(t, settings);
    const user = await anEndUser(t, tenant.app as never, { smtp, firstName: 'Ada' });
    return { ...tenant, user };
  }

  /** The authorization request without PKCE, as the OpenID Foundation's plans send it. */
  const withoutPkce = (app: TestApplication, overrides: Record<string, string | null> = {}) =>
    authorizeQuery(app, aPkcePair(), { code_challenge: null, code_challenge_method: null, ...overrides });

  describe('require_pkce on the application', () => {
    it('defaults to true, may be turned off for a confidential client on create and update, never for a public one', async () => {
      const { dev, ws, app } = await anApplication(t);
      expect(app).toEqual(expect.objectContaining({ require_pkce: true }));
      const off = await anApplication(t, { require_pkce: false }, { dev, ws });
      expect(off.app).toEqual(expect.objectContaining({ require_pkce: false }));
      const updated = await t.http().put(`/developer/oauth/clients/${app.id}/`).set(dev.auth).send({ require_pkce: false }).expect(200);
      expect(updated.body.require_pkce).toBe(false);
      expect((await t.http().get(`/developer/oauth/clients/${app.id}/`).set(dev.auth).expect(200)).body.require_pkce).toBe(false);

      const refused = await t
        .http()
        .post('/developer/oauth/clients/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, name: 'SPA', client_type: 'public', require_pkce: false, redirect_uris: [REDIRECT_URI] })
        .expect(400);
      expect(JSON.stringify(refused.body)).toMatch(/require_pkce/);
      const spa = await anApplication(t, { client_type: 'public' }, { dev, ws });
      await t.http().put(`/developer/oauth/clients/${spa.app.id}/`).set(dev.auth).send({ require_pkce: false }).expect(400);
      await t.http().put(`/developer/oauth/clients/${app.id}/`).set(dev.auth).send({ require_pkce: 'no' }).expect(400);
    });

    it("answers 404 when another workspace's developer updates the policy", async () => {
      const { app } = await anApplication(t);
      const stranger = await aDeveloper(t);
      await aWorkspace(t, stranger);
      await t.http().put(`/developer/oauth/clients/${app.id}/`).set(stranger.auth).send({ require_pkce: false }).expect(404);
    });

    it('refuses a request without PKCE from an application that requires it, with invalid_request on the redirect URI', async () => {
      const { app, user } = await aTenantWithUser();
      const agent = await aSignedInBrowser(t, user);
      const res = await agent.get(`/oauth/authorize?${withoutPkce(app, { state: 's1' })}`).expect(302);
      expect(res.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
      expect(Object.fromEntries(redirectParams(res.headers.location))).toEqual(
        expect.objectContaining({ error: 'invalid_request', state: 's1' }),
      );
    });

    it('lets a confidential application without PKCE sign a person in with a nonce, and refuses it without one', async () => {
      const { app, user } = await aTenantWithUser({ require_pkce: false });
      const agent = await aSignedInBrowser(t, user);
      const noNonce = await agent.get(`/oauth/authorize?${withoutPkce(app, { nonce: null })}`).expect(302);
      expect(redirectParams(noNonce.headers.location).get('error')).toBe('invalid_request');
      expect(redirectParams(noNonce.headers.location).get('error_description')).toMatch(/nonce/);

      const res = await agent.get(`/oauth/authorize?${withoutPkce(app, { nonce: 'n-1' })}`).expect(302);
      const code = redirectParams(res.headers.location).get('code')!;
      expect(code).toBeTruthy();
      const tokens = await tokenRequest(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }, basic(app)).expect(200);
      expect((await verifiedIdToken(t, tokens.body.id_token, app)).nonce).toBe('n-1');

      // A verifier for a code requested without a challenge is a downgrade probe (RFC 9700 §4.8.2).
      const again = await agent.get(`/oauth/authorize?${withoutPkce(app)}`).expect(302);
      const probe = await tokenRequest(
        t,
        {
          grant_type: 'authorization_code',
          code: redirectParams(again.headers.location).get('code')!,
          redirect_uri: REDIRECT_URI,
          code_verifier: aPkcePair().verifier,
        },
        basic(app),
      ).expect(400);
      expect(probe.body.error).toBe('invalid_grant');
    });

    it('still checks the PKCE of a request that sends it when the application does not require it', async () => {
      const { app, user } = await aTenantWithUser({ require_pkce: false });
      const agent = await aSignedInBrowser(t, user);
      const pkce = aPkcePair();
      const code = await aCode(agent, app, pkce);
      const missing = await tokenRequest(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }, basic(app)).expect(400);
      expect(missing.body.error).toBe('invalid_request');
      await exchange(t, app, code, pkce).expect(200);
    });
  });

  describe('error precedence', () => {
    it('answers prompt=none without a session with login_required, PKCE or not', async () => {
      const { app } = await aTenantWithUser({ require_pkce: false });
      const res = await request(t.app.getHttpServer())
        .get(`/oauth/authorize?${withoutPkce(app, { prompt: 'none', state: 'pn' })}`)
        .expect(302);
      expect(Object.fromEntries(redirectParams(res.headers.location))).toEqual(
        expect.objectContaining({ error: 'login_required', state: 'pn', iss: t.config.PUBLIC_BASE_URL }),
      );
    });

    it('shows an error page, never a redirect, for an unregistered redirect URI or an unknown client, whatever else is wrong', async () => {
      const { app } = await aTenantWithUser({ require_pkce: false });
      const http = request(t.app.getHttpServer());
      for (const query of [
        withoutPkce(app, { redirect_uri: 'https://evil.example.test/callback', prompt: 'none', response_type: null }),
        withoutPkce(app, { client_id: 'cli_000000000000000000000000', scope: 'email' }),
        withoutPkce(app, { redirect_uri: null, prompt: 'none' }),
      ]) {
        const res = await http.get(`/oauth/authorize?${query}`);
        expect({ query, status: res.status, location: res.headers.location }).toEqual({ query, status: 400, location: undefined });
        expect(res.headers['content-type']).toMatch(/text\/html/);
      }
    });
  });

  describe('max_age and auth_time', () => {
    it('sends a browser signed in a moment ago to the hosted login again for max_age=0, every time', async () => {
      const { app, user } = await aTenantWithUser();
      const agent = await aSignedInBrowser(t, user);
      for (let i = 0; i < 5; i++) {
        const res = await agent.get(`/oauth/authorize?${authorizeQuery(app, aPkcePair(), { max_age: '0' })}`).expect(302);
        const login = new URL(res.headers.location, t.baseUrl);
        expect({ try: i, path: login.pathname, prompt: login.searchParams.get('prompt') }).toEqual({
          try: i,
          path: '/auth/login/',
          prompt: 'login',
        });
      }
    });

    it('answers max_age=0 with a code once the person has signed in again, auth_time not before the request', async () => {
      const { app, user } = await aTenantWithUser();
      const agent = await aSignedInBrowser(t, user);
      const pkce = aPkcePair();
      const asked = Math.floor(Date.now() / 1000);
      const first = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { max_age: '0' })}`).expect(302);
      const login = new URL(first.headers.location, t.baseUrl);
      const signedIn = await signInOn(agent, user, login.search.slice(1));
      const code = redirectParams(signedIn.headers.location).get('code')!;
      const tokens = await exchange(t, app, code, pkce).expect(200);
      expect((await verifiedIdToken(t, tokens.body.id_token, app)).auth_time).toBeGreaterThanOrEqual(asked);
    });
  });

  describe('id_token_hint', () => {
    async function anIdTokenFor(app: TestApplication, user: Awaited<ReturnType<typeof anEndUser>>) {
      const agent = await aSignedInBrowser(t, user);
      const pkce = aPkcePair();
      const tokens = await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200);
      return { agent, idToken: tokens.body.id_token as string };
    }

    it('answers prompt=none with login_required when the hint names another person than the one signed in', async () => {
      const { app, user } = await aTenantWithUser();
      const other = await anEndUser(t, app as never, { smtp });
      const { idToken } = await anIdTokenFor(app, other);
      const agent = await aSignedInBrowser(t, user);
      const res = await agent
        .get(`/oauth/authorize?${authorizeQuery(app, aPkcePair(), { prompt: 'none', id_token_hint: idToken, state: 'h' })}`)
        .expect(302);
      expect(Object.fromEntries(redirectParams(res.headers.location))).toEqual(
        expect.objectContaining({ error: 'login_required', state: 'h' }),
      );
      expect(redirectParams(res.headers.location).get('code')).toBeNull();
    });

    it('answers prompt=none with a code when the hint names the person signed in', async () => {
      const { app, user } = await aTenantWithUser();
      const { agent, idToken } = await anIdTokenFor(app, user);
      const res = await agent
        .get(`/oauth/authorize?${authorizeQuery(app, aPkcePair(), { prompt: 'none', id_token_hint: idToken })}`)
        .expect(302);
      expect(redirectParams(res.headers.location).get('code')).toBeTruthy();
    });

    it('refuses a hint this server did not sign, or signed for another application, with invalid_request', async () => {
      const { app, user, dev, ws } = await aTenantWithUser();
      const other = await anApplication(t, {}, { dev, ws });
      const { agent, idToken } = await anIdTokenFor(app, user);
      const { privateKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT({ sub: user.id })
        .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
        .setIssuer(t.config.PUBLIC_BASE_URL)
        .setAudience(app.client_id)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      for (const [client, hint] of [
        [app, forged],
        [app, `${idToken.slice(0, -4)}AAAA`],
        [app, 'not-a-jwt'],
        [other.app, idToken],
      ] as const) {
        const res = await agent.get(`/oauth/authorize?${authorizeQuery(client, aPkcePair(), { id_token_hint: hint })}`).expect(302);
        expect(redirectParams(res.headers.location).get('error')).toBe('invalid_request');
      }
    });
  });

  describe('scopes', () => {
    it('ignores scopes it does not know (OpenID Connect Core §3.1.2.1) and grants what it knows', async () => {
      const { app, user } = await aTenantWithUser();
      const agent = await aSignedInBrowser(t, user);
      const pkce = aPkcePair();
      const code = await aCode(agent, app, pkce, { scope: 'address openid phone email made:up' });
      const tokens = await exchange(t, app, code, pkce).expect(200);
      expect(tokens.body.scope).toBe('openid email');
      const claims = await verifiedIdToken(t, tokens.body.id_token, app);
      expect(claims.email).toBe(user.email);
      expect(claims).not.toHaveProperty('address');
    });

    it('still refuses a request whose scope lacks openid', async () => {
      const { app, user } = await aTenantWithUser();
      const agent = await aSignedInBrowser(t, user);
      const res = await agent.get(`/oauth/authorize?${authorizeQuery(app, aPkcePair(), { scope: 'email address' })}`).expect(302);
      expect(redirectParams(res.headers.location).get('error')).toBe('invalid_scope');
    });
  });

  describe('redirect URIs', () => {
    it('never matches a loopback URI that parses to another path, and redirects to exactly the URI it matched', async () => {
      const { app, user } = await aTenantWithUser({ client_type: 'public', redirect_uris: ['http://127.0.0.1/cb'] });
      const agent = await aSignedInBrowser(t, user);
      const evil = await agent.get(`/oauth/authorize?${authorizeQuery(app, aPkcePair(), { redirect_uri: 'http://127.0.0.1\\evil/cb' })}`);
      expect({ status: evil.status, location: evil.headers.location }).toEqual({ status: 400, location: undefined });

      const pkce = aPkcePair();
      const ok = await agent
        .get(`/oauth/authorize?${authorizeQuery(app, pkce, { redirect_uri: 'http://127.0.0.1:51234/cb' })}`)
        .expect(302);
      const landed = new URL(ok.headers.location);
      expect(`${landed.origin}${landed.pathname}`).toBe('http://127.0.0.1:51234/cb');
      const code = landed.searchParams.get('code')!;
      await tokenRequest(t, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:51234/cb',
        code_verifier: pkce.verifier,
        client_id: app.client_id,
      }).expect(200);
    });
  });

  describe('client credentials with bytes no database stores', () => {
    const KNOWN_ERRORS = ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type'];
    /** A string with a NUL or an unpaired surrogate somewhere in it. */
    const unstorable = fc
      .tuple(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\u0000b', '\u0000\u0000'),
        fc.string({ maxLength: 20 }),
      )
      .map(([a, bad, b]) => `${a}${bad}${b}`);
    const endpoints = [
      ['/oauth/token', { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT_URI }],
      ['/oauth/revoke', { token: 'x' }],
      ['/oauth/introspect', { token: 'x' }],
    ] as const;

    /** Percent-encoding that also carries an unpaired surrogate (as the WTF-8 bytes a careless client would send). */
    const pct = (value: string) =>
      [...value]
        .map((c) => {
          const cp = c.codePointAt(0)!;
          if (cp < 0xd800 || cp > 0xdfff) return encodeURIComponent(c);
          return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
        })
        .join('');
    const formOf = (fields: Record<string, string>) =>
      Object.entries(fields)
        .map(([name, value]) => `${name}=${pct(value)}`)
        .join('&');

    async function anAssertion(claims: { iss: string; sub: string }) {
      const { privateKey } = await generateKeyPair('ES256');
      return new SignJWT({ jti: 'j' })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(claims.iss)
        .setSubject(claims.sub)
        .setAudience(`${t.config.PUBLIC_BASE_URL}/oauth/token`)
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(privateKey);
    }

    it('answers 400 or 401 in the OAuth error format for such bytes in Basic credentials, client_id, or an assertion sub/iss', async () => {
      const { app } = await anApplication(t);
      const expectOAuthRefusal = (label: string, res: request.Response) => {
        expect({ label, status: res.status }).toEqual({ label, status: res.status === 401 ? 401 : 400 });
        expect({ label, error: KNOWN_ERRORS.includes(res.body?.error) }).toEqual({ label, error: true });
      };
      await fc.assert(
        fc.asyncProperty(unstorable, fc.constantFrom(...endpoints), fc.nat(3), async (bad, [path, form], where) => {
          let res: request.Response;
          if (where === 0) {
            const credentials = Buffer.from(`${pct(bad)}:secret`).toString('base64');
            res = await t.http().post(path).set('Authorization', `Basic ${credentials}`).type('form').send(formOf(form));
          } else if (where === 1) {
            const credentials = Buffer.from(`${app.client_id}:${pct(bad)}`).toString('base64');
            res = await t.http().post(path).set('Authorization', `Basic ${credentials}`).type('form').send(formOf(form));
          } else if (where === 2) {
            res = await t
              .http()
              .post(path)
              .type('form')
              .send({ ...form, client_id: bad });
          } else {
            const assertion = await anAssertion(bad.length % 2 ? { iss: app.client_id, sub: bad } : { iss: bad, sub: bad });
            res = await t
              .http()
              .post(path)
              .type('form')
              .send({
                ...form,
                client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
                client_assertion: assertion,
              });
          }
          expectOAuthRefusal(`${path} #${where} ${JSON.stringify(bad)}`, res);
        }),
        { numRuns: 40 },
      );
    });
  });
});
