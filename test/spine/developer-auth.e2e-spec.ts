import { Clock } from '../../src/common/clock';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, uniqueEmail } from '../support/factories';

const cookieHeader = (setCookie: string[] | string | undefined) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');

describe('developer accounts, sessions and tokens', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  async function signedIn() {
    const email = uniqueEmail('dev');
    await t.http().post('/developer/auth/signup/').send({ email, password: 'correct horse battery', name: 'Ada' }).expect(201);
    const login = await t.http().post('/developer/auth/login/').send({ email, password: 'correct horse battery' }).expect(200);
    return { email, login, cookie: cookieHeader(login.headers['set-cookie']), csrf: login.body.csrf_token as string };
  }

  it('signs up, refuses a duplicate email in any case, and never returns the password hash', async () => {
    const email = uniqueEmail('dup');
    const created = await t.http().post('/developer/auth/signup/').send({ email, password: 'password-123', name: 'A' }).expect(201);
    expect(created.body).toEqual({ id: expect.any(String), email, name: 'A', created_at: expect.any(String) });
    const again = await t
      .http()
      .post('/developer/auth/signup/')
      .send({ email: email.toUpperCase(), password: 'password-123', name: 'B' })
      .expect(409);
    expect(again.body.error).toBe('email_taken');
  });

  it('rejects short passwords and unknown fields with 400 naming the fields', async () => {
    const res = await t
      .http()
      .post('/developer/auth/signup/')
      .send({ email: uniqueEmail(), password: 'short', name: 'A', is_admin: true })
      .expect(400);
    expect(res.body.error).toBe('validation_failed');
    expect(Object.keys(res.body.details)).toEqual(expect.arrayContaining(['password', 'is_admin']));
  });

  it('answers 401 invalid_credentials alike for a wrong password and an unknown email', async () => {
    const { email } = await signedIn();
    const wrong = await t.http().post('/developer/auth/login/').send({ email, password: 'nope-nope-nope' }).expect(401);
    const unknown = await t
      .http()
      .post('/developer/auth/login/')
      .send({ email: uniqueEmail('ghost'), password: 'nope-nope-nope' })
      .expect(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toBe('invalid_credentials');
  });

  it('sets an HttpOnly SameSite=Lax session cookie and a readable csrftoken cookie', async () => {
    const { login } = await signedIn();
    const cookies = ([] as string[]).concat(login.headers['set-cookie']);
    const sid = cookies.find((c) => c.startsWith('sid='))!;
    expect(sid).toMatch(/HttpOnly/i);
    expect(sid).toMatch(/SameSite=Lax/i);
    expect(cookies.find((c) => c.startsWith('csrftoken='))).not.toMatch(/HttpOnly/i);
  });

  it('requires the CSRF header on cookie-authenticated writes, but not on reads or bearer calls', async () => {
    const { cookie, csrf, email } = await signedIn();
    const me = await t.http().get('/developer/me/').set('Cookie', cookie).expect(200);
    expect(me.body.email).toBe(email);
    const refused = await t.http().post('/developer/tokens/').set('Cookie', cookie).send({ label: 'ci' }).expect(403);
    expect(refused.body.error).toBe('csrf_failed');
    await t.http().post('/developer/tokens/').set('Cookie', cookie).set('X-CSRF-Token', 'wrong').send({ label: 'ci' }).expect(403);
    const minted = await t
      .http()
      .post('/developer/tokens/')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .send({ label: 'ci' })
      .expect(201);
    expect(minted.body.token).toMatch(/^dat_[A-Za-z0-9_-]{54}$/);
    await t
      .http()
      .post('/e/v1/developer/workspaces/')
      .set('Authorization', `Bearer ${minted.body.token}`)
      .send({ name: 'via bearer' })
      .expect(201);
  });

  it('stores only the SHA-256 of access tokens and lists them without the secret', async () => {
    const dev = await aDeveloper(t);
    const list = await t.http().get('/developer/tokens/').set(dev.auth).expect(200);
    expect(list.body.results).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(dev.token);
    const stored = (await t.dataSource.query(`SELECT token_hash FROM developer_tokens WHERE developer_id = $1`, [dev.id])) as {
      token_hash: string;
    }[];
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a revoked token on the very next call and audits api_token_create/revoke', async () => {
    const dev = await aDeveloper(t);
    const minted = await t.http().post('/developer/tokens/').set(dev.auth).send({ label: 'short-lived' }).expect(201);
    const auth = { Authorization: `Bearer ${minted.body.token}` };
    await t.http().get('/developer/me/').set(auth).expect(200);
    await t.http().delete(`/developer/tokens/${minted.body.id}/`).set(dev.auth).expect(204);
    const after = await t.http().get('/developer/me/').set(auth).expect(401);
    expect(after.body.error).toBe('unauthorized');
    const events = (await t.dataSource.query(`SELECT event_type FROM audit_events WHERE target_id = $1 ORDER BY created_at`, [
      minted.body.id,
    ])) as { event_type: string }[];
    expect(events.map((e) => e.event_type)).toEqual(['api_token_create', 'api_token_revoke']);
  });

  it('refuses a token revoked by another instance on the next call to this one', async () => {
    const dev = await aDeveloper(t);
    const auth = { Authorization: `Bearer ${dev.token}` };
    // Warm this instance's credential cache.
    for (let i = 0; i < 3; i++) await t.http().get('/developer/me/').set(auth).expect(200);
    // What another instance's revoke commits: the row change and its notification, in one transaction.
    await t.dataSource.transaction(async (m) => {
      const [[row]] = await m.query(`UPDATE developer_tokens SET revoked_at = now() WHERE developer_id = $1 RETURNING token_hash`, [
        dev.id,
      ]);
      await m.query(`SELECT pg_notify('credential_revoked', $1)`, [row.token_hash]);
    });
    await eventually(() => t.http().get('/developer/me/').set(auth).expect(401), { timeoutMs: 1000, intervalMs: 10 });
  });

  it('refuses a token past its expiry although it was cached', async () => {
    const dev = await aDeveloper(t);
    const minted = await t
      .http()
      .post('/developer/tokens/')
      .set(dev.auth)
      .send({ label: 'brief', expires_at: new Date(Date.now() + 3_000).toISOString() })
      .expect(201);
    const auth = { Authorization: `Bearer ${minted.body.token}` };
    await t.http().get('/developer/me/').set(auth).expect(200);
    const clock = t.get<Clock>(Clock);
    // Within the cache's 5 s lifetime: the cached entry must lapse at the token's expiry.
    clock.advance(3_500);
    try {
      await t.http().get('/developer/me/').set(auth).expect(401);
    } finally {
      clock.reset();
    }
  });

  it('refuses an expired token and a token id of someone else with 404', async () => {
    const dev = await aDeveloper(t);
    const other = await aDeveloper(t);
    const mine = await t.http().get('/developer/tokens/').set(dev.auth).expect(200);
    await t.http().delete(`/developer/tokens/${mine.body.results[0].id}/`).set(other.auth).expect(404);
    await t.http().delete(`/developer/tokens/not-a-uuid/`).set(other.auth).expect(404);
    const past = await t
      .http()
      .post('/developer/tokens/')
      .set(dev.auth)
      .send({ label: 'x', expires_at: '2001-01-01T00:00:00Z' })
      .expect(400);
    expect(past.body.details).toHaveProperty('expires_at');
  });

  it('logs out: the cookie no longer authenticates', async () => {
    const { cookie } = await signedIn();
    await t.http().post('/developer/auth/logout/').set('Cookie', cookie).expect(204);
    await t.http().get('/developer/me/').set('Cookie', cookie).expect(401);
  });

  it('answers 401 without credentials and echoes X-Request-Id', async () => {
    const res = await t.http().get('/developer/me/').set('X-Request-Id', 'trace-abc-123').expect(401);
    expect(res.headers['x-request-id']).toBe('trace-abc-123');
    expect(res.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });
});

describe('developer signup switched off', () => {
  it('answers 403 when DEVELOPER_SIGNUP_ENABLED is false', async () => {
    const t = await createTestApp({ DEVELOPER_SIGNUP_ENABLED: 'False' });
    try {
      const res = await t
        .http()
        .post('/developer/auth/signup/')
        .send({ email: uniqueEmail(), password: 'password-123', name: 'A' })
        .expect(403);
      expect(res.body.error).toBe('forbidden');
    } finally {
      await t.close();
    }
  });
});
