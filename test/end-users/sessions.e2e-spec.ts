import { Clock } from '../../src/common/clock';
import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, bearer, logIn } from './support';

const sessionsOf = (t: TestApp, token: string) => t.http().get('/user/security/sessions/').set(bearer(token));

describe.each([
  ['with Redis', {}],
  ['without Redis', { REDIS_URL: '' }],
])('end-user sessions and tokens (%s)', (_label, env) => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ SMTP_URL: smtp.url, ...env });
  });
  afterEach(() => t.get<Clock>(Clock).reset());
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('rotates the refresh token: the new pair works, the old refresh token does not', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const first = await logIn(t, user);
    const second = await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: first.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.session_id).toBe(first.session_id);
    await sessionsOf(t, second.body.access_token).expect(200);
  });

  it('revokes the whole session when a spent refresh token is presented again', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const first = await logIn(t, user);
    const second = (await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: first.refresh_token }).expect(200)).body;
    const reuse = await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: first.refresh_token });
    expect(reuse.status).toBe(401);
    expect(reuse.body.error).toBe('invalid_token');
    // Both holders lose the session: the legitimate new tokens stop working too.
    await sessionsOf(t, second.access_token).expect(401);
    await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: second.refresh_token }).expect(401);
  });

  it('answers 401 on the next call after a session is revoked, and denylists its token ids', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const laptop = await logIn(t, user);
    const phone = await logIn(t, user);
    const list = await sessionsOf(t, laptop.access_token).expect(200);
    expect(list.body.results).toHaveLength(2);
    await t.http().delete(`/user/security/sessions/${phone.session_id}/`).set(bearer(laptop.access_token)).expect(204);
    await sessionsOf(t, phone.access_token).expect(401);
    await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: phone.refresh_token }).expect(401);
    const denied = (await t.dataSource.query(`SELECT count(*)::int AS n FROM token_denylist WHERE jti = ANY($1)`, [
      [jtiOf(phone.access_token)],
    ])) as { n: number }[];
    expect(denied[0].n).toBe(1);
    const after = await sessionsOf(t, laptop.access_token).expect(200);
    expect(after.body.results.map((s: { id: string }) => s.id)).toEqual([laptop.session_id]);
  });

  it("answers 404 for another user's session id", async () => {
    const { client } = await aTenant(t);
    const alice = await logIn(t, await anEndUser(t, client));
    const bob = await logIn(t, await anEndUser(t, client));
    await t.http().delete(`/user/security/sessions/${bob.session_id}/`).set(bearer(alice.access_token)).expect(404);
    await t.http().delete(`/user/security/sessions/not-a-uuid/`).set(bearer(alice.access_token)).expect(404);
    await sessionsOf(t, bob.access_token).expect(200);
  });

  it('logs out: 204, then the access token is refused', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const tokens = await logIn(t, user);
    await t.http().post('/e/v1/auth/logout/').set(bearer(tokens.access_token)).expect(204);
    await sessionsOf(t, tokens.access_token).expect(401);
    const events = (await t.dataSource.query(
      `SELECT actor_type, target_id, oauth_client_id FROM audit_events WHERE actor_id = $1 AND event_type = 'logout'`,
      [user.id],
    )) as Record<string, string>[];
    expect(events).toEqual([{ actor_type: 'end_user', target_id: tokens.session_id, oauth_client_id: client.id }]);
  });

  it('refuses an access token once its 15 minutes are over (clock moved), refresh still works', async () => {
    const { client } = await aTenant(t);
    const tokens = await logIn(t, await anEndUser(t, client));
    t.get<Clock>(Clock).advance(15 * 60 * 1000 + 1000);
    await sessionsOf(t, tokens.access_token).expect(401);
    const renewed = await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: tokens.refresh_token }).expect(200);
    await sessionsOf(t, renewed.body.access_token).expect(200);
  });

  it('refuses a deactivated user: sign-in 401, existing tokens 401', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const tokens = await logIn(t, user);
    await t.dataSource.query(`UPDATE end_users SET is_active = false WHERE id = $1`, [user.id]);
    await sessionsOf(t, tokens.access_token).expect(401);
    await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: tokens.refresh_token }).expect(401);
    const res = await t.http().post('/e/v1/auth/login/').send({ client_id: client.client_id, email: user.email, password: user.password });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_credentials');
  });

  it('refuses forged, malformed and missing tokens', async () => {
    await t.http().get('/user/security/sessions/').expect(401);
    await sessionsOf(t, 'not-a-jwt').expect(401);
    const { client } = await aTenant(t);
    const tokens = await logIn(t, await anEndUser(t, client));
    const [h, p] = tokens.access_token.split('.');
    await sessionsOf(t, `${h}.${p}.${'A'.repeat(43)}`).expect(401);
  });

  it("never signs a workspace's user in through another workspace's client", async () => {
    const a = await aTenant(t);
    const b = await aTenant(t);
    const user = await anEndUser(t, a.client);
    const res = await t
      .http()
      .post('/e/v1/auth/login/')
      .send({ client_id: b.client.client_id, email: user.email, password: user.password });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_credentials');
    // Same email registered in both: each password opens only its own workspace.
    const twin = await anEndUser(t, b.client, { email: user.email, password: 'another-password-123' });
    const viaB = await logIn(t, { ...twin });
    const claims = JSON.parse(Buffer.from(viaB.access_token.split('.')[1], 'base64url').toString()) as { sub: string; wid: string };
    expect(claims).toEqual(expect.objectContaining({ sub: twin.id, wid: b.ws.id }));
    const cross = await t
      .http()
      .post('/e/v1/auth/login/')
      .send({ client_id: a.client.client_id, email: user.email, password: 'another-password-123' });
    expect(cross.status).toBe(401);
  });

  it('resets a forgotten password with the emailed code and ends every session', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const before = await logIn(t, user);
    const request = await t.http().post('/e/v1/auth/password/reset/').send({ client_id: client.client_id, email: user.email });
    expect(request.body).toEqual({ success: true });
    const mail = await smtp.waitFor(user.email, { nth: 2 });
    expect(mail.subject).toMatch(/Reset your/);
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    const wrong = await t
      .http()
      .post('/e/v1/auth/password/reset/confirm/')
      .send({
        client_id: client.client_id,
        email: user.email,
        code: code === '000000' ? '000001' : '000000',
        new_password: 'brand-new-password',
      });
    expect(wrong.body.error).toBe('invalid_code');
    await t
      .http()
      .post('/e/v1/auth/password/reset/confirm/')
      .send({ client_id: client.client_id, email: user.email, code, new_password: 'brand-new-password' })
      .expect(200);
    await sessionsOf(t, before.access_token).expect(401);
    await t.http().post('/e/v1/auth/login/').send({ client_id: client.client_id, email: user.email, password: user.password }).expect(401);
    await logIn(t, { ...user, password: 'brand-new-password' });
    const events = (await t.dataSource.query(
      `SELECT event_type, actor_type, oauth_client_id FROM audit_events WHERE actor_id = $1 AND event_type LIKE 'password_reset_%' ORDER BY created_at`,
      [user.id],
    )) as Record<string, string>[];
    expect(events).toEqual([
      { event_type: 'password_reset_request', actor_type: 'end_user', oauth_client_id: client.id },
      { event_type: 'password_reset_confirm', actor_type: 'end_user', oauth_client_id: client.id },
    ]);
  });

  it("resets a workspace's directory account (no OAuth client) through workspace_id", async () => {
    const { ws } = await aTenant(t);
    const email = `dir-${Date.now()}@example.test`;
    await t.dataSource.query(`INSERT INTO end_users (workspace_id, oauth_client_id, email, email_verified) VALUES ($1, NULL, $2, true)`, [
      ws.id,
      email,
    ]);
    await t.http().post('/e/v1/auth/password/reset/').send({ workspace_id: ws.id, email }).expect(200, { success: true });
    const code = /\b(\d{6})\b/.exec((await smtp.waitFor(email)).text)![1];
    await t
      .http()
      .post('/e/v1/auth/password/reset/confirm/')
      .send({ workspace_id: ws.id, email, code, new_password: 'directory-password' })
      .expect(200);
    const missing = await t.http().post('/e/v1/auth/password/reset/').send({ email });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('validation_failed');
  });

  it('answers a reset request for an unknown email exactly like a known one', async () => {
    const { client } = await aTenant(t);
    const res = await t.http().post('/e/v1/auth/password/reset/').send({ client_id: client.client_id, email: 'nobody@example.test' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
  });

  it('changes the password while signed in, keeps this session and ends the others', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const here = await logIn(t, user);
    const elsewhere = await logIn(t, user);
    const bad = await t
      .http()
      .post('/e/v1/auth/password/')
      .set(bearer(here.access_token))
      .send({ current_password: 'wrong', new_password: 'a-new-password' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_password');
    await t
      .http()
      .post('/e/v1/auth/password/')
      .set(bearer(here.access_token))
      .send({ current_password: user.password, new_password: 'a-new-password' })
      .expect(200);
    await sessionsOf(t, here.access_token).expect(200);
    await sessionsOf(t, elsewhere.access_token).expect(401);
    const events = (await t.dataSource.query(`SELECT event_type FROM audit_events WHERE actor_id = $1 AND event_type = 'password_update'`, [
      user.id,
    ])) as unknown[];
    expect(events).toHaveLength(1);
  });

  it('records login_failure with a null actor for an unknown email and the user for a wrong password', async () => {
    const { ws, client } = await aTenant(t);
    const user = await anEndUser(t, client);
    await t.http().post('/e/v1/auth/login/').send({ client_id: client.client_id, email: 'ghost@example.test', password: 'x' }).expect(401);
    await t.http().post('/e/v1/auth/login/').send({ client_id: client.client_id, email: user.email, password: 'x' }).expect(401);
    const rows = (await t.dataSource.query(
      `SELECT actor_type, actor_id, oauth_client_id, severity FROM audit_events WHERE workspace_id = $1 AND event_type = 'login_failure' ORDER BY created_at`,
      [ws.id],
    )) as Record<string, string | null>[];
    expect(rows).toEqual([
      { actor_type: 'anonymous', actor_id: null, oauth_client_id: client.id, severity: 'warn' },
      { actor_type: 'end_user', actor_id: user.id, oauth_client_id: client.id, severity: 'warn' },
    ]);
  });
});

function jtiOf(jwt: string): string {
  return (JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as { jti: string }).jti;
}
