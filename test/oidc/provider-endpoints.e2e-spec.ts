import type { TestApp } from '../support/app';
import { withMailingApp } from '../support/mailing-app';
import type { SmtpReceiver } from '../support/smtp-receiver';
import { anEndUser, bearer } from '../end-users/support';
import { eventually } from '../support/eventually';
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
  tokenRequest,
} from './support';

const csrfFrom = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];
const hiddenFields = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]),
  );

describe('OpenID provider: revocation, introspection, consent, RP-initiated logout', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  async function signedInWithTokens(settings: Record<string, unknown> = {}) {
    const tenant = await anApplication(t, settings);
    const user = await anEndUser(t, tenant.app as never, { smtp, firstName: 'Ada' });
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const tokens = (await exchange(t, tenant.app, await aCode(agent, tenant.app, pkce), pkce).expect(200)).body as Record<string, string>;
    return { ...tenant, user, agent, tokens };
  }

  const form = (path: string, body: Record<string, string>, headers: Record<string, string>) =>
    t.http().post(path).set(headers).type('form').send(body);

  it('introspects an active token for its own client only, and revokes it (RFC 7662, RFC 7009)', async () => {
    const { app, user, tokens } = await signedInWithTokens();
    const other = await anApplication(t);
    const active = await form('/oauth/introspect', { token: tokens.access_token }, basic(app)).expect(200);
    expect(active.body).toEqual(
      expect.objectContaining({
        active: true,
        client_id: app.client_id,
        sub: user.id,
        scope: 'openid email profile',
        token_type: 'Bearer',
      }),
    );
    const refresh = await form('/oauth/introspect', { token: tokens.refresh_token }, basic(app)).expect(200);
    expect(refresh.body).toEqual(expect.objectContaining({ active: true, token_type: 'refresh_token' }));
    const foreign = await form('/oauth/introspect', { token: tokens.access_token }, basic(other.app)).expect(200);
    expect(foreign.body).toEqual({ active: false });

    // Another client's revocation leaves the token alone, and answers 200 all the same.
    await form('/oauth/revoke', { token: tokens.refresh_token }, basic(other.app)).expect(200);
    await t.http().get('/oauth/userinfo').set(bearer(tokens.access_token)).expect(200);

    await form('/oauth/revoke', { token: tokens.refresh_token, token_type_hint: 'refresh_token' }, basic(app)).expect(200);
    const after = await form('/oauth/introspect', { token: tokens.access_token }, basic(app)).expect(200);
    expect(after.body).toEqual({ active: false });
    const info = await t.http().get('/oauth/userinfo').set(bearer(tokens.access_token));
    expect(info.status).toBe(401);
    expect(info.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    await form('/oauth/revoke', { token: 'not-a-token' }, basic(app)).expect(200);
    const unauthenticated = await form('/oauth/revoke', { token: tokens.access_token }, {});
    expect(unauthenticated.status).toBe(401);
    await eventually(async () => {
      const rows = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM audit_events WHERE workspace_id = $1 AND event_type = 'oauth_token_revoke'`,
        [app.workspace_id],
      );
      expect(rows[0].n).toBe(1);
    });
  });

  it("asks a third-party application's consent once, remembers it, and lets the person revoke it on the sessions page", async () => {
    const { app, ws } = await anApplication(t, { first_party: false });
    const user = await anEndUser(t, app as never, { smtp });
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();

    const silent = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { prompt: 'none' })}`).expect(302);
    expect(redirectParams(silent.headers.location).get('error')).toBe('consent_required');

    const consentPage = async () => {
      const page = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { state: 'c1' })}`).expect(200);
      expect(page.text).toContain('Allow Acme Notes?');
      return hiddenFields(page.text);
    };
    const fields = await consentPage();
    const denied = await agent
      .post('/oauth/authorize/consent')
      .type('form')
      .send({ ...fields, decision: 'deny' })
      .expect(302);
    expect(redirectParams(denied.headers.location).get('error')).toBe('access_denied');
    expect(redirectParams(denied.headers.location).get('state')).toBe('c1');

    // A forged form token changes nothing (and renews the browser's form cookie: the page is opened again).
    const forged = await agent
      .post('/oauth/authorize/consent')
      .type('form')
      .send({ ...fields, csrf_token: 'forged', decision: 'allow' });
    expect(forged.status).toBe(403);

    const allowed = await agent
      .post('/oauth/authorize/consent')
      .type('form')
      .send({ ...(await consentPage()), decision: 'allow' })
      .expect(302);
    // Allow answers the application at once (decision 0919), with the request's state.
    expect(allowed.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    expect(redirectParams(allowed.headers.location).get('state')).toBe('c1');
    expect(redirectParams(allowed.headers.location).get('code')).toBeTruthy();
    // Remembered: no screen the second time.
    await aCode(agent, app, pkce);
    await eventually(async () => {
      const rows = await t.dataSource.query(
        `SELECT actor_type, actor_id, target_id FROM audit_events WHERE workspace_id = $1 AND event_type = 'oauth_consent_grant'`,
        [ws.id],
      );
      expect(rows).toEqual([{ actor_type: 'end_user', actor_id: user.id, target_id: app.id }]);
    });

    const sessionsPage = await agent.get('/auth/sessions/').expect(200);
    expect(sessionsPage.text).toContain('Applications you allowed');
    const revoked = await agent
      .post('/auth/sessions/applications/revoke')
      .type('form')
      .send({ csrf_token: csrfFrom(sessionsPage.text), application_id: app.id })
      .expect(303);
    expect(revoked.headers.location).toContain('app_revoked=1');
    const again = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce)}`).expect(200);
    expect(again.text).toContain('Allow Acme Notes?');
  });

  it("ends the browser session and the application's on RP-initiated logout, back to the registered URI with state", async () => {
    const { app, agent, tokens } = await signedInWithTokens({ post_logout_redirect_uris: ['https://app.example.test/signed-out'] });
    const refused = await agent.get(
      `/oauth/logout?id_token_hint=${tokens.id_token}&post_logout_redirect_uri=${encodeURIComponent('https://evil.example.test/')}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.location).toBeUndefined();

    const res = await agent
      .get(
        `/oauth/logout?id_token_hint=${tokens.id_token}&post_logout_redirect_uri=${encodeURIComponent('https://app.example.test/signed-out')}&state=bye`,
      )
      .expect(302);
    expect(res.headers.location).toBe('https://app.example.test/signed-out?state=bye');
    expect(String(res.headers['set-cookie'])).toMatch(/esid=;/);
    await t.http().get('/oauth/userinfo').set(bearer(tokens.access_token)).expect(401);
    const pkce = aPkcePair();
    const again = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { prompt: 'none' })}`).expect(302);
    expect(redirectParams(again.headers.location).get('error')).toBe('login_required');
  });

  it('asks before signing out when the request carries no ID token of the person', async () => {
    const { app, agent } = await signedInWithTokens();
    const page = await agent.get(`/oauth/logout?client_id=${app.client_id}`).expect(200);
    expect(page.text).toContain('Sign out?');
    const signedOut = await agent.post('/oauth/logout').type('form').send(hiddenFields(page.text)).expect(200);
    expect(signedOut.text).toContain("You're signed out");
    const pkce = aPkcePair();
    const again = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { prompt: 'none' })}`).expect(302);
    expect(redirectParams(again.headers.location).get('error')).toBe('login_required');
  });

  it('refuses private_key_jwt until keys are registered, then accepts a signed client assertion', async () => {
    const { generateKeyPair, exportJWK, SignJWT } = await import('jose');
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const { app, user } = await (async () => {
      const tenant = await anApplication(t, { jwks: { keys: [jwk] } });
      return { ...tenant, user: await anEndUser(t, tenant.app as never, { smtp }) };
    })();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const code = await aCode(agent, app, pkce);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(app.client_id)
      .setSubject(app.client_id)
      .setAudience(`${t.config.PUBLIC_BASE_URL}/oauth/token`)
      .setJti(`jti-${Date.now()}`)
      .setIssuedAt()
      .setExpirationTime('2m')
      .sign(privateKey);
    const res = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce.verifier,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    });
    expect(res.status).toBe(200);
  });

  it("keeps one workspace's developers away from another's application settings", async () => {
    const a = await anApplication(t, { first_party: false });
    const b = await anApplication(t);
    await t.http().get(`/developer/oauth/clients/${a.app.id}/`).set(b.dev.auth).expect(404);
    await t.http().put(`/developer/oauth/clients/${a.app.id}/`).set(b.dev.auth).send({ first_party: true }).expect(404);
    const own = await t.http().get(`/developer/oauth/clients/${a.app.id}/`).set(a.dev.auth).expect(200);
    expect(own.body).toEqual(expect.objectContaining({ first_party: false, client_type: 'confidential', subject_type: 'public' }));
  });
});
