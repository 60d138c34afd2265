import { createTestApp, TestApp } from '../support/app';

describe('security headers and error hygiene', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('sends the usual protective headers and no X-Powered-By', async () => {
    const res = await t.http().get('/health/live').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers malformed JSON with 400 and a body over the limit with 413, both without a stack trace', async () => {
    const bad = await t.http().post('/developer/auth/login/').set('Content-Type', 'application/json').send('{"email": ').expect(400);
    expect(bad.body).toEqual({ error: 'invalid_body', message: expect.any(String) });
    const huge = await t
      .http()
      .post('/developer/auth/login/')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'x'.repeat(300 * 1024) }))
      .expect(413);
    expect(huge.body.error).toBe('payload_too_large');
    expect(JSON.stringify(bad.body) + JSON.stringify(huge.body)).not.toMatch(/at \w+ \(|node_modules/);
  });

  it('rejects prototype-pollution keys as unknown fields', async () => {
    const res = await t
      .http()
      .post('/developer/auth/login/')
      .set('Content-Type', 'application/json')
      .send('{"email":"a@b.c","password":"x","__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}');
    expect([400, 401]).toContain(res.status);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
