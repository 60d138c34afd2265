import { ConfigError, loadConfig } from '../../src/config/config';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, uniqueEmail } from '../support/factories';

const DASHBOARD = 'https://dashboard.example.test';
const OTHER = 'https://evil.example.test';

const cookiePairs = (setCookie: string[] | string | undefined) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');

describe('CORS for a dashboard on its own origin (CORS_ORIGINS)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ CORS_ORIGINS: `${DASHBOARD}, http://localhost:5173`, COOKIE_DOMAIN: '127.0.0.1' })));
  afterAll(() => t.close());

  it('answers an allowed origin with its own origin and credentials, on /developer/ and /e/v1/developer/', async () => {
    const dev = await aDeveloper(t);
    const me = await t.http().get('/developer/me/').set(dev.auth).set('Origin', DASHBOARD).expect(200);
    expect(me.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(me.headers['access-control-allow-credentials']).toBe('true');
    expect(me.headers['access-control-expose-headers']).toContain('X-Request-Id');
    expect(me.headers.vary).toContain('Origin');

    const list = await t.http().get('/e/v1/developer/workspaces/').set(dev.auth).set('Origin', 'http://localhost:5173').expect(200);
    expect(list.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(list.headers['access-control-allow-credentials']).toBe('true');
  });

  it('gives any other origin no CORS header at all, and never a wildcard', async () => {
    const dev = await aDeveloper(t);
    for (const origin of [OTHER, 'null', `${DASHBOARD}.evil.test`, 'http://dashboard.example.test']) {
      const res = await t.http().get('/developer/me/').set(dev.auth).set('Origin', origin).expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('answers the preflight of a cookie-authenticated write (X-CSRF-Token, JSON body)', async () => {
    const pre = await t
      .http()
      .options('/e/v1/developer/workspaces/')
      .set('Origin', DASHBOARD)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-csrf-token')
      .expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    expect(pre.headers['access-control-allow-methods']).toContain('POST');
    expect(pre.headers['access-control-allow-headers']?.toLowerCase()).toContain('x-csrf-token');
    expect(pre.headers['access-control-max-age']).toBe('600');

    const refused = await t
      .http()
      .options('/e/v1/developer/workspaces/')
      .set('Origin', OTHER)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-csrf-token');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('leaves every route outside the developer API without CORS, even for an allowed origin', async () => {
    for (const path of ['/e/v1/auth/login/', '/health/live', '/scim/v2/Users', '/user/security/sessions/']) {
      const res = await t.http().get(path).set('Origin', DASHBOARD);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const pre = await t.http().options('/e/v1/auth/login/').set('Origin', DASHBOARD).set('Access-Control-Request-Method', 'POST');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('runs the cookie + CSRF sign-in a cross-origin dashboard uses; the cookies carry COOKIE_DOMAIN', async () => {
    const email = uniqueEmail('cors');
    const password = 'correct horse battery';
    await t.http().post('/developer/auth/signup/').set('Origin', DASHBOARD).send({ email, password, name: 'Dash' }).expect(201);
    const login = await t.http().post('/developer/auth/login/').set('Origin', DASHBOARD).send({ email, password }).expect(200);
    expect(login.headers['access-control-allow-origin']).toBe(DASHBOARD);
    const setCookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
    expect(setCookie.find((c) => c.startsWith('sid='))).toMatch(/Domain=127\.0\.0\.1;.*HttpOnly;.*SameSite=Lax/);
    expect(setCookie.find((c) => c.startsWith('csrftoken='))).toMatch(/Domain=127\.0\.0\.1;/);

    const cookie = cookiePairs(setCookie);
    const csrf = login.body.csrf_token as string;
    const noCsrf = await t.http().post('/e/v1/developer/workspaces/').set('Origin', DASHBOARD).set('Cookie', cookie).send({ name: 'x' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.headers['access-control-allow-origin']).toBe(DASHBOARD);
    const created = await t
      .http()
      .post('/e/v1/developer/workspaces/')
      .set('Origin', DASHBOARD)
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .send({ name: 'From the dashboard' })
      .expect(201);
    expect(created.headers['access-control-allow-origin']).toBe(DASHBOARD);

    const out = await t.http().post('/developer/auth/logout/').set('Origin', DASHBOARD).set('Cookie', cookie).expect(204);
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? []).filter((c) => c.includes('Domain=127.0.0.1'))).toHaveLength(2);
  });
});

describe('CORS off by default', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('sends no CORS header to any origin when CORS_ORIGINS is empty', async () => {
    const dev = await aDeveloper(t);
    const res = await t.http().get('/developer/me/').set(dev.auth).set('Origin', DASHBOARD).expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await t.http().options('/developer/me/').set('Origin', DASHBOARD).set('Access-Control-Request-Method', 'GET');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS validation at boot', () => {
  it.each(['*', 'https://*.example.com', 'https://app.example.com/path', 'app.example.com', 'https://a.example.com,,'])(
    'refuses %p',
    (value) => {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
    },
  );

  it('accepts a comma-separated list of origins', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).CORS_ORIGINS).toBeDefined();
    expect(loadConfig({ CORS_ORIGINS: '' }).CORS_ORIGINS).toBeUndefined();
  });
});
