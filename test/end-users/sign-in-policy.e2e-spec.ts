import * as argon2 from 'argon2';
import request from 'supertest';
import { TestApp } from '../support/app';
import { aDeveloper } from '../support/factories';
import { eventually } from '../support/eventually';
import { codeIn, SmtpReceiver } from '../support/smtp-receiver';
import { checksSettled, freshIp, UA } from '../anomalies/sign-ins';
import { claimsOf, passwordStep, withTotp } from './mfa-support';
import { aTenant, anEndUser, bearer, Tenant, TestEndUser } from './support';
import { withMailingApp } from '../support/mailing-app';

/** Browsers a credential-stuffing bot rotates through (each a device the users never used). */
const BOT_UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
];

describe('step-up on risk: the sign-in policy of a workspace', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started), { TRUST_PROXY: 'true' });

  const policyPath = (wsId: string) => `/e/v1/developer/workspaces/${wsId}/sign-in-policy/`;
  const setPolicy = (tenant: Tenant, body: Record<string, unknown>) =>
    t.http().put(policyPath(tenant.ws.id)).set(tenant.dev.auth).send(body);
  const login = (user: TestEndUser, from: { ua: string; ip: string }) =>
    t
      .http()
      .post('/e/v1/auth/login/')
      .set('User-Agent', from.ua)
      .set('X-Forwarded-For', from.ip)
      .send({ client_id: user.clientId, email: user.email, password: user.password });

  /** A user with one earlier sign-in from a known device (the first session is never flagged). */
  async function knownUser(tenant: Tenant): Promise<{ user: TestEndUser; home: { ua: string; ip: string } }> {
    const user = await anEndUser(t, tenant.client, { smtp });
    const home = { ua: UA.chromeMac(), ip: freshIp() };
    expect((await login(user, home)).status).toBe(200);
    return { user, home };
  }

  it('is off by default, is set per kind through the developer API, and refuses bad values and strangers', async () => {
    const tenant = await aTenant(t);
    const read = await t.http().get(policyPath(tenant.ws.id)).set(tenant.dev.auth).expect(200);
    const off = { new_device: 'allow', new_ip: 'allow', new_country: 'allow', impossible_travel: 'allow' };
    expect(read.body).toEqual({ workspace_id: tenant.ws.id, ...off, updated_at: null });
    const set = await setPolicy(tenant, { new_device: 'challenge' }).expect(200);
    expect(set.body).toEqual({ workspace_id: tenant.ws.id, ...off, new_device: 'challenge', updated_at: expect.any(String) });
    expect((await setPolicy(tenant, { new_ip: 'block' }).expect(200)).body).toMatchObject({ new_device: 'challenge', new_ip: 'block' });
    for (const body of [{ new_device: null }, { new_device: 'maybe' }, { new_planet: 'block' }]) {
      const res = await setPolicy(tenant, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    const stranger = await aDeveloper(t);
    expect((await t.http().get(policyPath(tenant.ws.id)).set(stranger.auth)).status).toBe(404);
    expect((await t.http().put(policyPath(tenant.ws.id)).set(stranger.auth).send({ new_device: 'allow' })).status).toBe(404);
    expect((await t.http().get(policyPath('not-a-uuid')).set(tenant.dev.auth)).status).toBe(404);
    expect((await t.http().get(policyPath(tenant.ws.id)).set(tenant.dev.auth)).body).toMatchObject({
      new_device: 'challenge',
      new_ip: 'block',
    });
  });

  it('challenges a new device of a user without a factor with a mailed code; the code finishes the sign-in and the anomaly says which policy acted', async () => {
    const tenant = await aTenant(t);
    const { user, home } = await knownUser(tenant);
    await setPolicy(tenant, { new_device: 'challenge' }).expect(200);

    // The known device still signs in directly.
    expect((await login(user, home)).body).toHaveProperty('access_token');

    const mailsBefore = smtp.messagesTo(user.email).length;
    const challenged = await login(user, { ua: UA.firefoxWindows, ip: freshIp() }).expect(200);
    expect(challenged.body).toEqual({ mfa_required: true, mfa_token: expect.stringMatching(/^mfa_/), methods: ['email_code'] });
    const mail = await smtp.waitFor(user.email, { nth: mailsBefore + 1 });
    expect(mail.subject).toContain('sign-in code');
    const wrong = await t
      .http()
      .post('/e/v1/auth/login/mfa/')
      .send({ mfa_token: challenged.body.mfa_token, code: codeIn(mail) === '000000' ? '111111' : '000000' });
    expect(wrong.body.error).toBe('invalid_code');
    const done = await t
      .http()
      .post('/e/v1/auth/login/mfa/')
      .set('User-Agent', UA.firefoxWindows)
      .send({ mfa_token: challenged.body.mfa_token, code: codeIn(mail) })
      .expect(200);
    expect(claimsOf(done.body.access_token)).toMatchObject({ amr: ['pwd', 'otp'], acr: 'https://refeds.org/profile/sfa' });

    await checksSettled(t);
    const anomalies = await t.http().get('/user/security/anomalies/').set(bearer(done.body.access_token)).expect(200);
    expect(anomalies.body.results).toContainEqual(
      expect.objectContaining({ kind: 'new_device', metadata: expect.objectContaining({ policy: 'challenge' }) }),
    );
    await eventually(async () => {
      const audit = await t
        .http()
        .get('/developer/audit/')
        .query({ workspace_id: tenant.ws.id, event_type: 'step_up_required' })
        .set(tenant.dev.auth)
        .expect(200);
      expect(audit.body.results[0].metadata).toMatchObject({ kinds: ['new_device'], policy: 'challenge', code_mailed: true });
    });
  });

  it('on the hosted login, draws a challenged step again after a wrong code with its own method only (the mailed code)', async () => {
    const tenant = await aTenant(t);
    const { user } = await knownUser(tenant);
    await setPolicy(tenant, { new_device: 'challenge' }).expect(200);
    const from = { 'User-Agent': UA.firefoxWindows, 'X-Forwarded-For': freshIp() };
    const agent = request.agent(t.app.getHttpServer());
    const form = await agent.get(`/auth/login/?client_id=${tenant.client.client_id}`).set(from).expect(200);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(form.text)![1];
    const mailsBefore = smtp.messagesTo(user.email).length;
    const step = await agent
      .post('/auth/login/')
      .set(from)
      .type('form')
      .send({ csrf_token: csrf, client_id: tenant.client.client_id, next: '/', email: user.email, password: user.password })
      .expect(200);
    const mfaToken = /name="mfa_token" value="([^"]+)"/.exec(step.text)![1];
    const code = codeIn(await smtp.waitFor(user.email, { nth: mailsBefore + 1 }));
    const post = (body: Record<string, string>) =>
      agent
        .post('/auth/login/mfa/')
        .set(from)
        .type('form')
        .send({ csrf_token: csrf, client_id: tenant.client.client_id, next: '/', mfa_token: mfaToken, ...body });
    const wrong = await post({ code: code === '000000' ? '111111' : '000000' }).expect(401);
    expect(wrong.text).toContain('That code is not correct');
    expect(wrong.text).toContain('Code from your email');
    expect(wrong.text).not.toContain('Authentication code');
    expect(wrong.text).not.toContain('Use a recovery code');
    expect(wrong.text).not.toContain('Use a passkey');
    const done = await post({ code }).expect(303);
    expect(String(done.headers['set-cookie'])).toMatch(/esid=/);
  });

  it('challenges a user with an authenticator for the authenticator code', async () => {
    const tenant = await aTenant(t);
    const { user } = await knownUser(tenant);
    const { app } = await withTotp(t, user);
    await setPolicy(tenant, { new_device: 'challenge' }).expect(200);
    const challenged = await login(user, { ua: UA.firefoxWindows, ip: freshIp() }).expect(200);
    expect(challenged.body.methods).toEqual(['totp', 'recovery_code']);
    const done = await t.http().post('/e/v1/auth/login/mfa/').send({ mfa_token: challenged.body.mfa_token, code: app.next() }).expect(200);
    expect(claimsOf(done.body.access_token)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
    expect(await passwordStep(t, user)).toMatch(/^mfa_/); // the factor is still asked on known devices
  });

  it('blocks a known device from a new address under block: 403 sign_in_blocked, no session, the sessions there were ended, the user mailed', async () => {
    const tenant = await aTenant(t);
    const { user, home } = await knownUser(tenant);
    const atHome = (await login(user, home).expect(200)).body as { access_token: string };
    await setPolicy(tenant, { new_ip: 'block' }).expect(200);
    const mailsBefore = smtp.messagesTo(user.email).length;
    const res = await login(user, { ua: home.ua, ip: freshIp() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'sign_in_blocked', message: expect.any(String) });
    const mail = await smtp.waitFor(user.email, { nth: mailsBefore + 1 });
    expect(mail.subject).toContain('blocked a sign-in');
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM end_user_sessions WHERE user_id = $1`, [user.id]);
    expect(count).toBe(2);
    // The right password from where the policy refuses it: the person's sessions end with the block (decision 0953).
    await t.http().get('/user/security/sessions/').set(bearer(atHome.access_token)).expect(401);
    await eventually(async () => {
      const audit = await t
        .http()
        .get('/developer/audit/')
        .query({ workspace_id: tenant.ws.id, event_type: 'sign_in_blocked' })
        .set(tenant.dev.auth)
        .expect(200);
      expect(audit.body.results[0]).toMatchObject({
        actor_id: user.id,
        metadata: expect.objectContaining({ kinds: ['new_ip'], policy: 'block', sessions_ended: 2 }),
      });
    });
  });

  it('gives 1,000 correct passwords from unseen devices 0 usable sessions under challenge (credential stuffing)', async () => {
    const tenant = await aTenant(t);
    const users: TestEndUser[] = [];
    for (let i = 0; i < 20; i++) users.push((await knownUser(tenant)).user);
    // argon2id at the service's cost makes 1,000 verifications a minute of CPU here; these
    // accounts get a cheap argon2id hash of the same password (verify reads the cost from the hash).
    for (const user of users) {
      const cheap = await argon2.hash(user.password, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
      await t.dataSource.query('UPDATE end_users SET password_hash = $1 WHERE id = $2', [cheap, user.id]);
    }
    await setPolicy(tenant, { new_device: 'challenge', new_ip: 'challenge' }).expect(200);

    const attempts = Array.from({ length: 1000 }, (_, i) => ({
      user: users[i % users.length],
      ua: BOT_UAS[i % BOT_UAS.length],
      ip: `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    }));
    const answers: { status: number; body: Record<string, unknown> }[] = [];
    const started = Date.now();
    for (let i = 0; i < attempts.length; i += 25) {
      const batch = await Promise.all(attempts.slice(i, i + 25).map((a) => login(a.user, { ua: a.ua, ip: a.ip })));
      answers.push(...batch.map((r) => ({ status: r.status, body: r.body as Record<string, unknown> })));
    }
    // Every one challenged; any other answer is printed whole by the matcher.
    expect(answers.filter((a) => !(a.status === 200 && a.body.mfa_required === true))).toEqual([]);
    expect(answers).toHaveLength(1000);
    expect(answers.filter((a) => 'access_token' in a.body || 'refresh_token' in a.body)).toHaveLength(0);
    const ids = users.map((u) => u.id);
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM end_user_sessions WHERE user_id = ANY($1::uuid[])`, [
      ids,
    ]);
    expect(count).toBe(users.length); // only each user's own earlier sign-in
    // At most one code mail per user and minute, however many attempts: the bot cannot mail-bomb them.
    const minutes = Math.ceil((Date.now() - started) / 60_000);
    for (const user of users) {
      expect(smtp.messagesTo(user.email).filter((m) => m.subject.includes('sign-in code')).length).toBeLessThanOrEqual(minutes);
    }
  }, 180_000);
});
