import request from 'supertest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { uniqueEmail } from '../support/factories';
import { withMailingApp } from '../support/mailing-app';
import { codeIn, SmtpReceiver } from '../support/smtp-receiver';
import { anApplication, aPkcePair, authorizeQuery, REDIRECT_URI, TestApplication } from '../oidc/support';

const csrfFrom = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];

/** Decision 0317: an application with allow_signup offers "Create an account" on its hosted login. */
describe('hosted sign-up', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));

  /** A browser that opened the sign-up form of `app`; answers the form's CSRF token. */
  async function openSignUp(app: TestApplication) {
    const agent = request.agent(t.app.getHttpServer());
    const form = await agent.get(`/auth/login/signup/?client_id=${app.client_id}`).expect(200);
    return { agent, csrf: csrfFrom(form.text) };
  }

  it('is off by default: no link on the sign-in form, the form answers 404 and a post creates nothing', async () => {
    const { app, dev } = await anApplication(t);
    expect((app as unknown as { allow_signup: boolean }).allow_signup).toBe(false);
    const login = await t.http().get(`/auth/login/?client_id=${app.client_id}`).expect(200);
    expect(login.text).not.toContain('Create an account');
    const closed = await t.http().get(`/auth/login/signup/?client_id=${app.client_id}`).expect(404);
    expect(closed.text).toContain('does not offer sign-up');

    const agent = request.agent(t.app.getHttpServer());
    const csrf = csrfFrom((await agent.get(`/auth/login/?client_id=${app.client_id}`)).text);
    const email = uniqueEmail('closed');
    await agent
      .post('/auth/login/signup/')
      .type('form')
      .send({ csrf_token: csrf, client_id: app.client_id, next: '/', email, password: 'a-long-password' })
      .expect(404);
    const users = await t.http().get('/developer/audit/').query({ workspace_id: app.workspace_id }).set(dev.auth).expect(200);
    expect(users.body.results.map((e: { event_type: string }) => e.event_type)).not.toContain('register');
  });

  it('is turned on per application through the API, and shows in the application', async () => {
    const { app, dev } = await anApplication(t);
    const updated = await t.http().put(`/developer/oauth/clients/${app.id}/`).set(dev.auth).send({ allow_signup: true }).expect(200);
    expect(updated.body.allow_signup).toBe(true);
    const login = await t.http().get(`/auth/login/?client_id=${app.client_id}&next=/x`).expect(200);
    expect(login.text).toContain(`href="/auth/login/signup/?next=%2Fx&amp;client_id=${app.client_id}">Create an account</a>`);
    await t.http().put(`/developer/oauth/clients/${app.id}/`).set(dev.auth).send({ allow_signup: 'yes' }).expect(400);
  });

  it('refuses a bad address, a short password and an address that has an account, each on the form', async () => {
    const { app } = await anApplication(t, { allow_signup: true });
    const { agent, csrf } = await openSignUp(app);
    const post = (email: string, password: string) =>
      agent.post('/auth/login/signup/').type('form').send({ csrf_token: csrf, client_id: app.client_id, next: '/', email, password });

    const bad = await post('not-an-address', 'a-long-password').expect(400);
    expect(bad.text).toContain('role="alert">Enter a valid email address.</div>');
    const short = await post(uniqueEmail('short'), 'short').expect(400);
    expect(short.text).toContain('at least 8 characters');

    const email = uniqueEmail('twice');
    await post(email, 'a-long-password').expect(201);
    const again = await post(email, 'another-long-password').expect(409);
    expect(again.text).toContain('An account with this email already exists');
    // A form without its CSRF token does nothing.
    await agent
      .post('/auth/login/signup/')
      .type('form')
      .send({ client_id: app.client_id, email: uniqueEmail('nocsrf'), password: 'a-long-password' })
      .expect(403);
  });

  it('a newcomer creates an account from an OpenID sign-in, enters the emailed code and continues to the application with a code', async () => {
    const { app, dev } = await anApplication(t, { allow_signup: true });
    const pkce = aPkcePair();
    const state = 'newcomer-state';
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.route(`${REDIRECT_URI}**`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback' }));
      await page.goto(`${t.baseUrl}/oauth/authorize?${authorizeQuery(app, pkce, { state })}`);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();
      const email = uniqueEmail('newcomer');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('newcomer-password-1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Verify your email first' }).waitFor();

      const mail = await smtp.waitFor(email);
      await page.getByLabel('Verification code').fill(codeIn(mail));
      await page.getByRole('button', { name: 'Verify email' }).click();
      await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
      const answer = new URL(page.url()).searchParams;
      expect(answer.get('state')).toBe(state);
      expect(answer.get('code')).toEqual(expect.any(String));

      const token = await t
        .http()
        .post('/oauth/token')
        .auth(app.client_id, app.client_secret!)
        .type('form')
        .send({ grant_type: 'authorization_code', code: answer.get('code'), redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier })
        .expect(200);
      const claims = JSON.parse(Buffer.from((token.body.id_token as string).split('.')[1], 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(claims).toMatchObject({ email, email_verified: true });
    } finally {
      await context.close();
    }
    const audit = await t.http().get('/developer/audit/').query({ workspace_id: app.workspace_id }).set(dev.auth).expect(200);
    expect(audit.body.results.map((e: { event_type: string }) => e.event_type)).toEqual(
      expect.arrayContaining(['register', 'email_verify_confirm', 'login_success']),
    );
  });
});
