import request from 'supertest';
import { BrowserSessionsService } from '../../src/hosted-login/browser-sessions.service';
import { createTestApp, TestApp } from '../support/app';
import { SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser } from './support';
import { withMailingApp } from '../support/mailing-app';

const csrfFrom = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];

describe('hosted login page', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  async function openForm(agent: ReturnType<typeof request.agent>, query: string) {
    const page = await agent.get(`/auth/login/?${query}`).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    return csrfFrom(page.text);
  }

  it('signs in with a workspace hint, sets an HttpOnly esid cookie and redirects to next', async () => {
    const { ws, client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await openForm(agent, `workspace_id=${ws.id}&next=/saml/sso/finish/`);
    const res = await agent
      .post('/auth/login/')
      .type('form')
      .send({ csrf_token: csrf, workspace_id: ws.id, next: '/saml/sso/finish/', email: user.email, password: user.password });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/saml/sso/finish/');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('esid='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const current = await t.get<BrowserSessionsService>(BrowserSessionsService).sessionFor(cookie.split(';')[0].slice(5));
    expect(current).toEqual(expect.objectContaining({ userId: user.id, workspaceId: ws.id, authenticatedAt: expect.any(Date) }));
  });

  it('shows a generic error in the live region for a wrong password and keeps the email', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await openForm(agent, `client_id=${client.client_id}`);
    const res = await agent
      .post('/auth/login/')
      .type('form')
      .send({ csrf_token: csrf, client_id: client.client_id, next: '/', email: user.email, password: 'wrong password' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('role="alert">Email or password is incorrect</div>');
    expect(res.text).toContain(`value="${user.email}"`);
  });

  it('refuses a post without the CSRF token', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const agent = request.agent(t.app.getHttpServer());
    await openForm(agent, `client_id=${client.client_id}`);
    const res = await agent
      .post('/auth/login/')
      .type('form')
      .send({ csrf_token: 'forged', client_id: client.client_id, email: user.email, password: user.password });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']?.toString() ?? '').not.toMatch(/esid=/);
  });

  it('never redirects off the service', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await openForm(agent, `client_id=${client.client_id}`);
    const res = await agent
      .post('/auth/login/')
      .type('form')
      .send({ csrf_token: csrf, client_id: client.client_id, next: '//evil.example/x', email: user.email, password: user.password });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/auth/login/?client_id=${client.client_id}`);
  });

  it('ends a sign-in with a client_id and no next on a signed-in page naming the application, not the landing page', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client, { smtp });
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await openForm(agent, `client_id=${client.client_id}`);
    const res = await agent
      .post('/auth/login/')
      .type('form')
      .send({ csrf_token: csrf, client_id: client.client_id, email: user.email, password: user.password });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/auth/login/?client_id=${client.client_id}`);
    const landed = await agent.get(res.headers.location).expect(200);
    expect(landed.text).toContain('Signed in to <strong>Acme Notes</strong>');
    expect(landed.text).toContain(user.email);
    expect(landed.text).not.toContain('<h1>Identity service</h1>');
    // Signing out from there shows this application's sign-in form again.
    const out = await agent
      .post('/auth/login/logout/')
      .type('form')
      .send({ csrf_token: csrfFrom(landed.text), client_id: client.client_id });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe(`/auth/login/?client_id=${client.client_id}`);
    expect((await agent.get(out.headers.location).expect(200)).text).toContain('to continue to Acme Notes');
  });

  /** Register without verifying, post the right password: the "verify your email first" page. */
  async function interruptedSignIn(next = '/app/') {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const agent = request.agent(t.app.getHttpServer());
    const opened = await agent.get(`/auth/login/?client_id=${client.client_id}&next=${next}`).expect(200);
    const csrfCookie = ([] as string[])
      .concat(opened.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('esid_csrf='))!
      .split(';')[0];
    const form = { csrf_token: csrfFrom(opened.text), client_id: client.client_id, next };
    const res = await agent
      .post('/auth/login/')
      .type('form')
      .send({ ...form, email: user.email, password: user.password });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Verify your email first');
    const code = /\b(\d{6})\b/.exec((await smtp.waitFor(user.email)).subject)![1];
    return { client, user, agent, form, code, csrfCookie, setCookies: ([] as string[]).concat(res.headers['set-cookie'] ?? []) };
  }

  it('asks an unverified user to verify first, then continues the sign-in without the password again', async () => {
    const { user, agent, form, code, setCookies } = await interruptedSignIn('/app/');
    const continuation = setCookies.find((c) => c.startsWith('esid_cont='))!;
    expect(continuation).toMatch(/HttpOnly/);
    expect(continuation).toMatch(/SameSite=Strict/);
    expect(continuation).toMatch(/Path=\/auth\/login\//);
    expect(setCookies.some((c) => c.startsWith('esid='))).toBe(false);
    const verified = await agent
      .post('/auth/login/verify/')
      .type('form')
      .send({ ...form, email: user.email, code });
    expect(verified.status).toBe(303);
    expect(verified.headers.location).toBe('/app/');
    const cookies = ([] as string[]).concat(verified.headers['set-cookie'] ?? []);
    const esid = cookies.find((c) => c.startsWith('esid='))!;
    const current = await t.get<BrowserSessionsService>(BrowserSessionsService).sessionFor(esid.split(';')[0].slice(5));
    expect(current).toEqual(expect.objectContaining({ userId: user.id }));
    // Used once: the continuation cookie is cleared.
    expect(cookies.find((c) => c.startsWith('esid_cont='))).toMatch(/esid_cont=;/);
  });

  it('does not continue a sign-in in another browser, nor once the address is verified', async () => {
    const { user, form, code, csrfCookie, setCookies } = await interruptedSignIn('/app/');
    const continuation = setCookies.find((c) => c.startsWith('esid_cont='))!.split(';')[0];
    const post = (cookies: string[], body: Record<string, string>) =>
      t.http().post('/auth/login/verify/').set('Cookie', cookies.join('; ')).type('form').send(body);
    // Another browser (its own CSRF cookie) that somehow holds the continuation and the code: not signed in.
    const other = await t.http().get(`/auth/login/?client_id=${form.client_id}`).expect(200);
    const otherCsrf = ([] as string[])
      .concat(other.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('esid_csrf='))!
      .split(';')[0];
    const stolen = await post([otherCsrf, continuation], { ...form, csrf_token: csrfFrom(other.text), email: user.email, code });
    expect(stolen.status).toBe(200);
    expect(stolen.text).toContain('Email verified. Sign in to continue.');
    expect(String(stolen.headers['set-cookie'] ?? '')).not.toMatch(/esid=[^;]/);
    // The genuine browser, its address now verified: its continuation no longer continues anything.
    const replay = await post([csrfCookie, continuation], { ...form, email: user.email, code });
    expect(replay.status).toBe(200);
    expect(replay.text).toContain('already verified');
    expect(String(replay.headers['set-cookie'] ?? '')).not.toMatch(/esid=[^;]/);
  });

  it('ignores a continuation whose signature does not match', async () => {
    const { user, form, code, csrfCookie, setCookies } = await interruptedSignIn('/app/');
    const continuation = setCookies.find((c) => c.startsWith('esid_cont='))!.split(';')[0];
    const forged = `${continuation.split('.')[0]}.${'A'.repeat(43)}`;
    const res = await t
      .http()
      .post('/auth/login/verify/')
      .set('Cookie', [csrfCookie, forged].join('; '))
      .type('form')
      .send({ ...form, email: user.email, code });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Email verified. Sign in to continue.');
    expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/esid=[^;]/);
  });

  it('verifies the address but asks for the password when the browser has no continuation', async () => {
    const { user, form, code } = await interruptedSignIn('/app/');
    const fresh = request.agent(t.app.getHttpServer());
    const csrf = await openForm(fresh, `client_id=${form.client_id}`);
    const verified = await fresh
      .post('/auth/login/verify/')
      .type('form')
      .send({ ...form, csrf_token: csrf, email: user.email, code });
    expect(verified.status).toBe(200);
    expect(verified.text).toContain('Email verified. Sign in to continue.');
    const again = await fresh
      .post('/auth/login/')
      .type('form')
      .send({ ...form, csrf_token: csrf, email: user.email, password: user.password });
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/app/');
  });

  it('replaces the previous browser session when the same browser signs in again', async () => {
    const { ws, client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await openForm(agent, `workspace_id=${ws.id}`);
    const form = { csrf_token: csrf, workspace_id: ws.id, next: '/', email: user.email, password: user.password };
    await agent.post('/auth/login/').type('form').send(form).expect(303);
    await agent.post('/auth/login/').type('form').send(form).expect(303);
    const live = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM end_user_sessions WHERE user_id = $1 AND kind = 'browser' AND revoked_at IS NULL`,
      [user.id],
    )) as { n: number }[];
    expect(live[0].n).toBe(1);
  });

  it('signs out: the session is revoked and the cookie cleared', async () => {
    const { ws, client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await openForm(agent, `workspace_id=${ws.id}`);
    await agent
      .post('/auth/login/')
      .type('form')
      .send({ csrf_token: csrf, workspace_id: ws.id, next: '/', email: user.email, password: user.password })
      .expect(303);
    const out = await agent.post('/auth/login/logout/').type('form').send({ csrf_token: csrf });
    expect(out.status).toBe(303);
    expect(String(out.headers['set-cookie'])).toMatch(/esid=;/);
    const live = (await t.dataSource.query(`SELECT count(*)::int AS n FROM end_user_sessions WHERE user_id = $1 AND revoked_at IS NULL`, [
      user.id,
    ])) as { n: number }[];
    expect(live[0].n).toBe(0);
  });

  it('lets a directory (SCIM-provisioned) user set a first password, then sign in with the workspace hint', async () => {
    const { ws } = await aTenant(t);
    const email = `directory-${Date.now()}@example.test`;
    // As SCIM provisions: no OAuth client, verified, no password.
    await t.dataSource.query(
      `INSERT INTO end_users (workspace_id, oauth_client_id, email, first_name, email_verified) VALUES ($1, NULL, $2, 'Dana', true)`,
      [ws.id, email],
    );
    const agent = request.agent(t.app.getHttpServer());
    const login = await agent.get(`/auth/login/?workspace_id=${ws.id}&next=/saml/sso/finish/`).expect(200);
    const resetHref = /href="([^"]*reset[^"]*)"/.exec(login.text)![1].replace(/&amp;/g, '&');
    const form = await agent.get(resetHref).expect(200);
    const csrf = csrfFrom(form.text);
    const context = { csrf_token: csrf, workspace_id: ws.id, next: '/saml/sso/finish/' };
    const asked = await agent
      .post('/auth/login/reset/')
      .type('form')
      .send({ ...context, email });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Choose a new password');
    const code = /\b(\d{6})\b/.exec((await smtp.waitFor(email)).text)![1];
    const set = await agent
      .post('/auth/login/reset/confirm/')
      .type('form')
      .send({ ...context, email, code, new_password: 'first-password-1' });
    expect(set.status).toBe(200);
    expect(set.text).toContain('Your password is set');
    const signedIn = await agent
      .post('/auth/login/')
      .type('form')
      .send({ ...context, email, password: 'first-password-1' });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/saml/sso/finish/');
  });

  it('answers a reset for an unknown email with the same next page', async () => {
    const { client } = await aTenant(t);
    const agent = request.agent(t.app.getHttpServer());
    const csrf = csrfFrom((await agent.get(`/auth/login/reset/?client_id=${client.client_id}`).expect(200)).text);
    const res = await agent
      .post('/auth/login/reset/')
      .type('form')
      .send({ csrf_token: csrf, client_id: client.client_id, next: '/', email: 'nobody@example.test' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('If an account matches');
  });

  it('explains an incomplete link instead of showing a form that cannot work', async () => {
    const res = await t.http().get('/auth/login/');
    expect(res.status).toBe(400);
    expect(res.text).toContain('does not say which application');
  });
});

describe('hosted login at a custom SAML_IDP_LOGIN_URL', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ SAML_IDP_LOGIN_URL: '/sso/sign-in' })));
  afterAll(() => t.close());

  it('sends the configured path to the hosted login, query kept', async () => {
    const { client } = await aTenant(t);
    const res = await t.http().get(`/sso/sign-in?client_id=${client.client_id}&next=/x/`);
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe(`/auth/login/?client_id=${client.client_id}&next=/x/`);
    const page = await t.http().get(res.headers.location);
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/auth/login/"');
  });
});
