import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { withTotp } from '../end-users/mfa-support';
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
  signInOn,
  tokenRequest,
  verifiedIdToken,
} from './support';

describe('OpenID provider: authorization endpoint and code exchange', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  async function aTenantWithUser(settings: Record<string, unknown> = {}) {
    const tenant = await anApplication(t, settings);
    const user = await anEndUser(t, { ...tenant.app, client_secret: tenant.app.client_secret ?? '' } as never, { smtp, firstName: 'Ada' });
    return { ...tenant, user };
  }

  it('sends a browser without a session through the hosted login, whose password post answers the redirect URI with code, state and iss', async () => {
    const { app, user } = await aTenantWithUser();
    const pkce = aPkcePair();
    const agent = request.agent(t.app.getHttpServer());
    const query = authorizeQuery(app, pkce, { state: 'xyz-state', login_hint: user.email });
    const first = await agent.get(`/oauth/authorize?${query}`).expect(302);
    const login = new URL(first.headers.location, t.baseUrl);
    expect(login.pathname).toBe('/auth/login/');
    expect(login.searchParams.get('client_id')).toBe(app.client_id);
    expect(login.searchParams.get('email')).toBe(user.email);
    const next = login.searchParams.get('next')!;
    expect(next.startsWith('/oauth/authorize?')).toBe(true);

    // The sign-in answers the authorization request itself: no second trip through /oauth/authorize (decision 0919).
    const signedIn = await signInOn(agent, user, login.search.slice(1));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    const params = redirectParams(signedIn.headers.location);
    expect(params.get('state')).toBe('xyz-state');
    expect(params.get('iss')).toBe(t.config.PUBLIC_BASE_URL);
    expect(params.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The code is an ordinary one: it buys tokens for this person, once.
    const tokens = await exchange(t, app, params.get('code')!, pkce).expect(200);
    expect((await verifiedIdToken(t, tokens.body.id_token, app)).email).toBe(user.email);
    // The browser is signed in too: the next authorization request answers at once.
    await aCode(agent, app, aPkcePair());
  });

  it('exchanges the code once for access, refresh and ID tokens whose claims follow the scope', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const code = await aCode(agent, app, pkce, { nonce: 'n-0S6_WzA2Mj' });
    const res = await exchange(t, app, code, pkce).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^rt_/),
      id_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      scope: 'openid email profile',
    });
    const claims = await verifiedIdToken(t, res.body.id_token, app);
    expect(claims).toEqual(
      expect.objectContaining({
        iss: t.config.PUBLIC_BASE_URL,
        sub: user.id,
        aud: app.client_id,
        nonce: 'n-0S6_WzA2Mj',
        email: user.email,
        email_verified: true,
        given_name: 'Ada',
        amr: ['pwd'],
        acr: 'https://refeds.org/profile/sfa',
        auth_time: expect.any(Number),
      }),
    );
    // The access token works on the end-user endpoints like any other.
    const sessions = await t.http().get('/user/security/sessions/').set(bearer(res.body.access_token)).expect(200);
    expect(sessions.body.results ?? sessions.body).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'api' })]));
    const issued = await eventually(async () => {
      const rows = await t.dataSource.query(
        `SELECT actor_type, oauth_client_id, metadata->>'grant_type' AS grant_type, metadata->>'user_id' AS user_id
           FROM audit_events WHERE workspace_id = $1 AND event_type = 'oauth_token_issue'`,
        [app.workspace_id],
      );
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(issued[0]).toEqual({ actor_type: 'oauth_client', oauth_client_id: app.id, grant_type: 'authorization_code', user_id: user.id });
  });

  it('refuses a code presented twice and revokes what its first exchange issued', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const code = await aCode(agent, app, pkce);
    const first = await exchange(t, app, code, pkce).expect(200);
    const second = await exchange(t, app, code, pkce).expect(400);
    expect(second.body.error).toBe('invalid_grant');
    await t.http().get('/oauth/userinfo').set(bearer(first.body.access_token)).expect(401);
    const refresh = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, basic(app));
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('lets one of two simultaneous exchanges of a code win, and then revokes what it issued', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const code = await aCode(agent, app, pkce);
    const answers = await Promise.all([exchange(t, app, code, pkce), exchange(t, app, code, pkce)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const won = answers.find((r) => r.status === 200)!;
    expect(answers.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
    // The code was presented twice: the tokens of the exchange that won die as well (OAuth 2.1 §4.1.3),
    // revoked before the loser was answered.
    await t.http().get('/oauth/userinfo').set(bearer(won.body.access_token)).expect(401);
    const refresh = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: won.body.refresh_token }, basic(app));
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('never sends a sign-in whose next names an unregistered redirect URI there: the browser meets the error page', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = request.agent(t.app.getHttpServer());
    const next = `/oauth/authorize?${authorizeQuery(app, aPkcePair(), { redirect_uri: 'https://evil.example.test/callback' })}`;
    const signedIn = await signInOn(agent, user, new URLSearchParams({ client_id: app.client_id, next }).toString());
    expect(signedIn.headers.location).toBe(next);
    const page = await agent.get(next);
    expect(page.status).toBe(400);
    expect(page.headers.location).toBeUndefined();
  });

  it('answers an unregistered redirect URI and an unknown client with an error page, never a redirect', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const wrongUri = await agent.get(
      `/oauth/authorize?${authorizeQuery(app, pkce, { redirect_uri: 'https://evil.example.test/callback' })}`,
    );
    expect(wrongUri.status).toBe(400);
    expect(wrongUri.headers.location).toBeUndefined();
    expect(wrongUri.headers['content-type']).toMatch(/text\/html/);
    const prefix = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { redirect_uri: `${REDIRECT_URI}/more` })}`);
    expect(prefix.status).toBe(400);
    const unknown = await agent.get(`/oauth/authorize?${authorizeQuery({ ...app, client_id: 'cli_000000000000000000000000' }, pkce)}`);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.location).toBeUndefined();
  });

  it('redirects invalid_request with state when PKCE is missing or not S256', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const faults: Record<string, string | null>[] = [
      { code_challenge: null },
      { code_challenge_method: 'plain' },
      { code_challenge_method: null },
    ];
    for (const overrides of faults) {
      const res = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { ...overrides, state: 's1' })}`).expect(302);
      const params = redirectParams(res.headers.location);
      expect(res.headers.location.startsWith(REDIRECT_URI)).toBe(true);
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('state')).toBe('s1');
      expect(params.get('code')).toBeNull();
    }
    const noOpenid = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { scope: 'email' })}`).expect(302);
    expect(redirectParams(noOpenid.headers.location).get('error')).toBe('invalid_scope');
    const token = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { response_type: 'token' })}`).expect(302);
    expect(redirectParams(token.headers.location).get('error')).toBe('unsupported_response_type');
  });

  it('answers prompt=none without a session with login_required, and with one with a code', async () => {
    const { app, user } = await aTenantWithUser();
    const pkce = aPkcePair();
    const anonymous = await t
      .http()
      .get(`/oauth/authorize?${authorizeQuery(app, pkce, { prompt: 'none', state: 's2' })}`)
      .expect(302);
    const params = redirectParams(anonymous.headers.location);
    expect(params.get('error')).toBe('login_required');
    expect(params.get('state')).toBe('s2');
    const agent = await aSignedInBrowser(t, user);
    await aCode(agent, app, pkce, { prompt: 'none' });
  });

  it('asks a signed-in browser for the password again on prompt=login, and issues the code after it', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const res = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { prompt: 'login' })}`).expect(302);
    const login = new URL(res.headers.location, t.baseUrl);
    expect(login.pathname).toBe('/auth/login/');
    const form = await agent.get(`${login.pathname}${login.search}`).expect(200);
    expect(form.text).toContain('name="password"');
    const signedIn = await signInOn(agent, user, login.search.slice(1));
    expect(signedIn.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    expect(redirectParams(signedIn.headers.location).get('code')).toBeTruthy();
  });

  it('refuses a wrong client secret (401 invalid_client), a wrong verifier and another redirect URI (invalid_grant)', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const code = await aCode(agent, app, pkce);
    const wrongSecret = await tokenRequest(
      t,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier },
      basic({ ...app, client_secret: 'cs_wrong' }),
    );
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');
    expect(wrongSecret.headers['www-authenticate']).toMatch(/^Basic/);
    const wrongVerifier = await exchange(t, app, code, aPkcePair());
    expect(wrongVerifier.body.error).toBe('invalid_grant');
    const otherUri = await tokenRequest(
      t,
      { grant_type: 'authorization_code', code, redirect_uri: `${REDIRECT_URI}x`, code_verifier: pkce.verifier },
      basic(app),
    );
    expect(otherUri.body.error).toBe('invalid_grant');
    // None of the refused attempts spent the code: its own client, verifier and redirect URI still exchange it.
    await exchange(t, app, code, pkce).expect(200);
  });

  it('lets a public client exchange its code with PKCE alone, and refuses a confidential client that does not authenticate', async () => {
    const pub = await aTenantWithUser({ client_type: 'public', redirect_uris: ['http://127.0.0.1/native/cb'] });
    expect(pub.app.client_secret).toBeNull();
    const agent = await aSignedInBrowser(t, pub.user);
    const pkce = aPkcePair();
    // RFC 8252 §7.3: a loopback redirect URI with any port.
    const res = await agent
      .get(`/oauth/authorize?${authorizeQuery(pub.app, pkce, { redirect_uri: 'http://127.0.0.1:53124/native/cb' })}`)
      .expect(302);
    expect(res.headers.location.startsWith('http://127.0.0.1:53124/native/cb?')).toBe(true);
    const code = redirectParams(res.headers.location).get('code')!;
    const tokens = await tokenRequest(t, {
      grant_type: 'authorization_code',
      client_id: pub.app.client_id,
      code,
      redirect_uri: 'http://127.0.0.1:53124/native/cb',
      code_verifier: pkce.verifier,
    }).expect(200);
    expect(tokens.body.id_token).toEqual(expect.any(String));

    const conf = await aTenantWithUser();
    const confAgent = await aSignedInBrowser(t, conf.user);
    const confCode = await aCode(confAgent, conf.app, pkce);
    const unauthenticated = await tokenRequest(t, {
      grant_type: 'authorization_code',
      client_id: conf.app.client_id,
      code: confCode,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce.verifier,
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.error).toBe('invalid_client');
  });

  it('lets a public (native) client register a reverse-domain private-use scheme and sign in through it (RFC 8252 §7.1, §8.4)', async () => {
    const NATIVE = 'com.example.notes:/oauth2redirect';
    const pub = await aTenantWithUser({ client_type: 'public', redirect_uris: [NATIVE] });
    expect(pub.app.redirect_uris).toEqual([NATIVE]);
    const pkce = aPkcePair();
    const agent = request.agent(t.app.getHttpServer());
    const first = await agent
      .get(`/oauth/authorize?${authorizeQuery(pub.app, pkce, { redirect_uri: NATIVE, state: 'native' })}`)
      .expect(302);
    const login = new URL(first.headers.location, t.baseUrl);
    const signedIn = await signInOn(agent, pub.user, login.search.slice(1));
    expect(signedIn.headers.location.startsWith(`${NATIVE}?`)).toBe(true);
    expect(redirectParams(signedIn.headers.location).get('state')).toBe('native');
    // The sign-in form may lead there: the scheme is among the page's CSP form-action sources.
    expect(signedIn.headers['content-security-policy']).toContain("form-action 'self' com.example.notes:");
    const tokens = await tokenRequest(t, {
      grant_type: 'authorization_code',
      client_id: pub.app.client_id,
      code: redirectParams(signedIn.headers.location).get('code')!,
      redirect_uri: NATIVE,
      code_verifier: pkce.verifier,
    }).expect(200);
    expect(tokens.body.id_token).toEqual(expect.any(String));

    const create = (body: Record<string, unknown>) =>
      t
        .http()
        .post('/developer/oauth/clients/')
        .set(pub.dev.auth)
        .send({ workspace_id: pub.ws.id, name: 'Native', ...body });
    // A confidential client may not use one (any app on the device can claim the scheme), on create or update.
    const confidential = await create({ redirect_uris: [NATIVE] }).expect(400);
    expect(confidential.body.details.redirect_uris).toEqual([expect.stringContaining('public client')]);
    const conf = await create({ redirect_uris: [REDIRECT_URI] }).expect(201);
    await t
      .http()
      .put(`/developer/oauth/clients/${conf.body.id}/`)
      .set(pub.dev.auth)
      .send({ redirect_uris: [NATIVE] })
      .expect(400);
    // RFC 8252 §8.4: a scheme without a period is refused, as are script schemes and fragments.
    for (const uri of ['notes:/oauth2redirect', 'javascript:alert(1)', 'com.example.notes:/cb#x']) {
      const refused = await create({ client_type: 'public', redirect_uris: [uri] }).expect(400);
      expect(refused.body.error).toBe('validation_failed');
    }
  });

  it("accepts client_secret_post, and never lets another workspace's client spend a code", async () => {
    const a = await aTenantWithUser();
    const b = await anApplication(t);
    const agent = await aSignedInBrowser(t, a.user);
    const pkce = aPkcePair();
    const code = await aCode(agent, a.app, pkce);
    const stolen = await tokenRequest(
      t,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier },
      basic(b.app),
    );
    expect(stolen.body.error).toBe('invalid_grant');
    const posted = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce.verifier,
      client_id: a.app.client_id,
      client_secret: a.app.client_secret!,
    });
    expect(posted.status).toBe(200);
  });

  it('rotates refresh tokens: each works once, a spent one revokes the session, another client cannot use them', async () => {
    const { app, user } = await aTenantWithUser();
    const other = await anApplication(t);
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const tokens = (await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200)).body;
    const foreign = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(other.app));
    expect(foreign.body.error).toBe('invalid_grant');
    const refreshed = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(app)).expect(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    const idToken = await verifiedIdToken(t, refreshed.body.id_token, app);
    expect(idToken.sub).toBe(user.id);
    expect(idToken.nonce).toBeUndefined();
    const reuse = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(app));
    expect(reuse.body.error).toBe('invalid_grant');
    const afterReuse = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, basic(app));
    expect(afterReuse.body.error).toBe('invalid_grant');
  });

  it('lets one of two simultaneous refreshes of a token win, and then revokes the session both would continue', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const tokens = (await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200)).body;
    const grant = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token };
    const answers = await Promise.all([tokenRequest(t, grant, basic(app)), tokenRequest(t, grant, basic(app))]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const won = answers.find((r) => r.status === 200)!;
    expect(answers.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
    // The token was presented twice: the session is revoked before the loser is answered, so the winner's tokens are dead too.
    await t.http().get('/oauth/userinfo').set(bearer(won.body.access_token)).expect(401);
    const next = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: won.body.refresh_token }, basic(app));
    expect(next.body.error).toBe('invalid_grant');
  });

  it('records each refresh once in the audit log, and a refresh refused records no issue', async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const tokens = (await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200)).body;
    const refreshed = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(app)).expect(200);
    // The same spent token again (refused, and its session revoked), and an unknown one: neither is an issue.
    await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(app)).expect(400);
    await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: 'rt_unknown' }, basic(app)).expect(400);
    const { sid } = await verifiedIdToken(t, refreshed.body.id_token, app);
    const rows = await eventually(async () => {
      const found = await t.dataSource.query(
        `SELECT metadata->>'grant_type' AS grant_type, metadata->>'user_id' AS user_id, metadata->>'session_id' AS session_id
           FROM audit_events WHERE workspace_id = $1 AND event_type = 'oauth_token_issue' ORDER BY created_at, id`,
        [app.workspace_id],
      );
      expect(found).toHaveLength(2);
      return found;
    });
    expect(rows).toEqual([
      { grant_type: 'authorization_code', user_id: user.id, session_id: sid },
      { grant_type: 'refresh_token', user_id: user.id, session_id: sid },
    ]);
    expect(refreshed.body.scope).toBe(tokens.scope);
  });

  it("refuses to refresh the tokens of a person deactivated since, and keeps the ID token's amr and auth_time on a refresh", async () => {
    const { app, user } = await aTenantWithUser();
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const tokens = (await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200)).body;
    const first = await verifiedIdToken(t, tokens.id_token, app);
    const refreshed = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(app)).expect(200);
    const again = await verifiedIdToken(t, refreshed.body.id_token, app);
    expect({ amr: again.amr, auth_time: again.auth_time, sid: again.sid }).toEqual({
      amr: first.amr,
      auth_time: first.auth_time,
      sid: first.sid,
    });
    await t.dataSource.query(`UPDATE end_users SET is_active = false WHERE id = $1`, [user.id]);
    const refused = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, basic(app));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
  });

  it('gives a pairwise client a subject of its own, stable across sign-ins, in ID token and UserInfo', async () => {
    const { app, user } = await aTenantWithUser({ subject_type: 'pairwise', id_token_signed_response_alg: 'ES256' });
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    const first = (await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200)).body;
    const second = (await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200)).body;
    const a = await verifiedIdToken(t, first.id_token, app);
    const b = await verifiedIdToken(t, second.id_token, app);
    expect(JSON.parse(Buffer.from(first.id_token.split('.')[0], 'base64url').toString()).alg).toBe('ES256');
    expect(a.sub).not.toBe(user.id);
    expect(a.sub).toBe(b.sub);
    const info = await t.http().get('/oauth/userinfo').set(bearer(first.access_token)).expect(200);
    expect(info.body).toEqual({ sub: a.sub, email: user.email, email_verified: true, name: 'Ada', given_name: 'Ada' });
  });

  it('publishes the OpenID configuration with this service as issuer', async () => {
    const res = await t.http().get('/.well-known/openid-configuration').expect(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        issuer: t.config.PUBLIC_BASE_URL,
        authorization_endpoint: `${t.config.PUBLIC_BASE_URL}/oauth/authorize`,
        token_endpoint: `${t.config.PUBLIC_BASE_URL}/oauth/token`,
        userinfo_endpoint: `${t.config.PUBLIC_BASE_URL}/oauth/userinfo`,
        jwks_uri: `${t.config.PUBLIC_BASE_URL}/oauth/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public', 'pairwise'],
        id_token_signing_alg_values_supported: ['RS256', 'ES256'],
        code_challenge_methods_supported: ['S256'],
      }),
    );
    expect(res.body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
    const jwks = await t.http().get('/oauth/jwks').expect(200);
    expect(jwks.body.keys.map((k: { alg: string }) => k.alg)).toEqual(expect.arrayContaining(['EdDSA', 'RS256', 'ES256']));
  });
});

describe('OpenID provider: max_age and acr_values', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  it('asks for the password again when the session is older than max_age, and not when it is younger', async () => {
    const { app } = await anApplication(t);
    const user = await anEndUser(t, app as never, { smtp });
    const agent = await aSignedInBrowser(t, user);
    const pkce = aPkcePair();
    t.get<Clock>(Clock).advance(120_000);
    await aCode(agent, app, pkce, { max_age: '3600' });
    const stale = await agent.get(`/oauth/authorize?${authorizeQuery(app, pkce, { max_age: '60' })}`).expect(302);
    const login = new URL(stale.headers.location, t.baseUrl);
    expect(login.pathname).toBe('/auth/login/');
    expect(login.searchParams.get('prompt')).toBe('login');
    const signedIn = await signInOn(agent, user, login.search.slice(1));
    const code = redirectParams(signedIn.headers.location).get('code')!;
    const tokens = await exchange(t, app, code, pkce).expect(200);
    const claims = await verifiedIdToken(t, tokens.body.id_token, app);
    expect(Math.floor(t.get<Clock>(Clock).now().getTime() / 1000) - Number(claims.auth_time)).toBeLessThanOrEqual(60);
  });

  it('steps a signed-in person up to their second factor for acr_values=mfa, and the ID token says so', async () => {
    const { app } = await anApplication(t);
    const user = await anEndUser(t, app as never, { smtp });
    const agent = await aSignedInBrowser(t, user);
    const { app: authenticator } = await withTotp(t, user);
    const pkce = aPkcePair();
    const res = await agent
      .get(`/oauth/authorize?${authorizeQuery(app, pkce, { acr_values: 'https://refeds.org/profile/mfa' })}`)
      .expect(302);
    const stepUp = new URL(res.headers.location, t.baseUrl);
    expect(stepUp.searchParams.get('step_up')).toBe('1');
    const page = await agent.get(`${stepUp.pathname}${stepUp.search}`).expect(200);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.text)![1].replace(/&amp;/g, '&');
    const passed = await agent
      .post('/auth/login/mfa/')
      .type('form')
      .send({
        csrf_token: field('csrf_token'),
        mfa_token: field('mfa_token'),
        next: field('next'),
        client_id: app.client_id,
        code: authenticator.next(),
      })
      .expect(303);
    // The second step answers the authorization request itself (decision 0919).
    expect(passed.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    const code = redirectParams(passed.headers.location).get('code')!;
    const tokens = await exchange(t, app, code, pkce).expect(200);
    const claims = await verifiedIdToken(t, tokens.body.id_token, app);
    expect(claims.acr).toBe('https://refeds.org/profile/mfa');
    expect(claims.amr).toEqual(expect.arrayContaining(['mfa']));
  });
});
