import { connect } from 'node:net';
import { createTestApp, TestApp } from '../support/app';
import { aTenant, Tenant } from '../end-users/support';
import { aScimUser, ERROR_SCHEMA, PATCH_OP, scimClient, aScimToken, userBody, aUserName, GROUP_SCHEMA } from '../scim/scim-support';

/**
 * Text PostgreSQL refuses (U+0000) or cannot encode (unpaired surrogates) is refused at the edge:
 * 400 in the surface's error format, never the 500 the database error used to become (issue 13, item 13).
 * The bodies are written as JSON text so the escapes reach the server as a client would send them.
 */
const NUL = '\\u0000';
const SURROGATES = ['\\ud800', '\\udfff', 'a\\udc00b'];

describe('characters the database refuses are refused at the edge', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await aTenant(t);
  });
  afterAll(() => t.close());

  const postRaw = (path: string, json: string) => t.http().post(path).set('Content-Type', 'application/json').send(json);

  const unauthenticated: [string, (bad: string) => string][] = [
    ['/developer/auth/signup/', (bad) => `{"email":"x${Date.now()}@example.com","password":"pw-123456789","name":"A${bad}B"}`],
    ['/developer/auth/login/', (bad) => `{"email":"a${bad}@example.com","password":"pw-123456789"}`],
    ['/e/v1/auth/register/', (bad) => `{"client_id":"CLIENT","email":"a@example.com","password":"pw-123456789","first_name":"A${bad}"}`],
    ['/e/v1/auth/login/', (bad) => `{"client_id":"CLIENT${bad}","email":"a@example.com","password":"pw-123456789"}`],
    ['/e/v1/auth/password/reset/', (bad) => `{"client_id":"CLIENT${bad}","email":"a@example.com"}`],
    [
      '/e/v1/auth/password/reset/confirm/',
      (bad) => `{"client_id":"CLIENT","email":"a@example.com","code":"1${bad}","new_password":"pw-123456789"}`,
    ],
  ];

  it.each(unauthenticated)('POST %s refuses U+0000 and lone surrogates with 400 invalid_body', async (path, body) => {
    for (const bad of [NUL, ...SURROGATES]) {
      const res = await postRaw(path, body(bad).replace('CLIENT', tenant.client.client_id));
      expect({ path, bad, status: res.status }).toEqual({ path, bad, status: 400 });
      expect(res.body).toEqual({ error: 'invalid_body', message: expect.stringContaining('U+0000') });
    }
  });

  it('refuses them in JSON keys and in form bodies (the hosted login page)', async () => {
    const key = await postRaw('/developer/auth/login/', `{"email":"a@example.com","pass${NUL}word":"x"}`);
    expect(key.status).toBe(400);
    const form = await t
      .http()
      .post('/auth/login')
      .type('form')
      .send(`email=a%00@example.com&password=x&client_id=${tenant.client.client_id}`);
    expect(form.status).toBe(400);
    expect(form.headers['content-type']).toMatch(/text\/html/);
  });

  it('refuses a percent-encoded NUL in a query value or path, and in a cookie', async () => {
    const query = await t.http().get(`/developer/audit/events/?workspace_id=${tenant.ws.id}&cursor=2026%00`).set(tenant.dev.auth);
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ error: 'invalid_body', message: expect.stringContaining('U+0000') });
    const path = await t.http().get(`/developer/oauth/clients/%00/`).set(tenant.dev.auth);
    expect(path.status).toBe(400);
    const cookie = await t.http().get('/developer/tokens/').set('Cookie', 'sid=abc%00def');
    expect(cookie.status).toBe(400);
  });

  it('answers SCIM with invalidValue, on writes and on filters, and stores nothing', async () => {
    const { token } = await aScimToken(t, tenant.dev, tenant.ws);
    const s = scimClient(t, token);
    const user = await aScimUser({ ...s, dev: tenant.dev, ws: tenant.ws, token, tokenId: '' });
    const raw = (method: 'post' | 'put' | 'patch', path: string, json: string) =>
      t.http()[method](`/scim/v2${path}`).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/scim+json').send(json);
    const name = aUserName();
    const cases = [
      raw('post', '/Users', JSON.stringify(userBody(name)).replace('"Test"', `"Te${NUL}st"`)),
      raw('post', '/Groups', `{"schemas":["${GROUP_SCHEMA}"],"displayName":"G${SURROGATES[0]}"}`),
      raw('put', `/Users/${user.id}`, JSON.stringify(userBody(user.userName)).replace('"User"', `"Us${NUL}er"`)),
      raw(
        'patch',
        `/Users/${user.id}`,
        `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"replace","path":"name.givenName","value":"A${NUL}"}]}`,
      ),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidValue' });
    }
    const filter = await s.get(`/Users?filter=${encodeURIComponent('userName eq "a')}%00${encodeURIComponent('"')}`);
    expect(filter.status).toBe(400);
    expect(filter.body).toMatchObject({ schemas: [ERROR_SCHEMA], scimType: 'invalidValue' });
    const listed = await s.get(`/Users?filter=${encodeURIComponent(`userName eq "${name}"`)}`).expect(200);
    expect(listed.body.totalResults).toBe(0);
    expect((await s.get(`/Users/${user.id}`).expect(200)).body.name).toEqual({
      givenName: 'Test',
      familyName: 'User',
      formatted: 'Test User',
    });
  });

  it('leaves other unusual but storable characters alone', async () => {
    const res = await postRaw(
      '/developer/auth/signup/',
      `{"email":"odd${Date.now()}@example.com","password":"pw-123456789","name":"\\uFFFF\\uFFFE \\u0001 😀"}`,
    );
    expect(res.status).toBe(201);
  });

  it('refuses a NUL in a header value before any handler runs, with a JSON 400', async () => {
    const { port } = new URL(t.baseUrl);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\nUser-Agent: a\u0000b\r\n\r\n', 'latin1');
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('end', () => resolve(data));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toMatch(/application\/json/);
    expect(reply).toMatch(/"error":"invalid_header"/);
  });
});
