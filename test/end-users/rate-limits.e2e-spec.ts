import request from 'supertest';
import { createTestApp, TestApp } from '../support/app';
import { uniqueEmail } from '../support/factories';
import { aTenant, anEndUser } from './support';
import { testRedisPrefix } from '../support/redis-keys';
import { anApplication } from '../oidc/support';

describe('abuse limits on sign-in endpoints', () => {
  const prefix = testRedisPrefix();
  const limits = { RATE_LIMIT_AUTH_PER_MINUTE: '6', RATE_LIMIT_ACCOUNT_PER_MINUTE: '3', REDIS_KEY_PREFIX: prefix, TRUST_PROXY: 'true' };
  let t: TestApp;
  let twin: TestApp;
  beforeAll(async () => {
    t = await createTestApp(limits);
    twin = await createTestApp(limits);
  });
  afterAll(async () => {
    await t.close();
    await twin.close();
  });

  it('limits hosted sign-ups per IP like the registration API: the page says so with Retry-After, and no account is made', async () => {
    const { app, dev } = await anApplication(t, { allow_signup: true });
    const agent = request.agent(t.app.getHttpServer());
    const form = await agent.get(`/auth/login/signup/?client_id=${app.client_id}`).expect(200);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(form.text)![1];
    const signUp = (email: string) =>
      agent
        .post('/auth/login/signup/')
        .set('X-Forwarded-For', '10.9.9.9')
        .type('form')
        .send({ csrf_token: csrf, client_id: app.client_id, next: '/', email, password: 'a-long-password' });
    for (let i = 0; i < 6; i++) expect((await signUp(uniqueEmail('spray'))).status).toBe(201);
    const refused = uniqueEmail('refused');
    const limited = await signUp(refused);
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/text\/html/);
    expect(limited.text).toContain('<h1>Too many attempts</h1>');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const audit = await t
      .http()
      .get('/developer/audit/')
      .query({ workspace_id: app.workspace_id, event_type: 'register' })
      .set(dev.auth)
      .expect(200);
    expect(audit.body.results).toHaveLength(6);
  });

  it('limits login attempts per account, with Retry-After, whatever the password', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const attempt = (ip: string) =>
      t
        .http()
        .post('/e/v1/auth/login/')
        .set('X-Forwarded-For', ip)
        .send({ client_id: client.client_id, email: user.email, password: 'wrong' });
    for (let i = 0; i < 3; i++) expect((await attempt('10.0.0.1')).status).toBe(401);
    const limited = await attempt('10.0.0.1');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The right password does not get through either while the account is limited.
    const right = await t
      .http()
      .post('/e/v1/auth/login/')
      .send({ client_id: client.client_id, email: user.email, password: user.password });
    expect(right.status).toBe(429);
  });

  it('limits attempts per IP across many accounts, and shares the counters between instances', async () => {
    const { client } = await aTenant(t);
    const spray = (app: TestApp) =>
      app
        .http()
        .post('/e/v1/auth/login/')
        .set('X-Forwarded-For', '10.2.0.1')
        .send({ client_id: client.client_id, email: uniqueEmail('spray'), password: 'x' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await spray(i % 2 === 0 ? t : twin)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    // The seventh attempt from that IP is refused, on whichever instance it lands.
    expect((await spray(twin)).status).toBe(429);
    expect((await spray(t)).status).toBe(429);
  });

  it.each([
    ['register', '/e/v1/auth/register/', (c: string) => ({ client_id: c, email: 'same@example.test', password: 'long-enough-password' })],
    ['verify', '/e/v1/email/verify/', () => ({ email: 'same@example.test', code: '123456' })],
    ['resend', '/e/v1/email/verify/resend/', () => ({ email: 'nobody-resend@example.test' })],
    ['reset', '/e/v1/auth/password/reset/', (c: string) => ({ client_id: c, email: 'same@example.test' })],
  ])('limits %s per account', async (_name, path, body) => {
    const { client } = await aTenant(t);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await t.http().post(path).set('X-Forwarded-For', `10.1.0.${i}`).send(body(client.client_id))).status);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });
});
