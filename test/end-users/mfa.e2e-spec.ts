import { Clock } from '../../src/common/clock';
import { totpCodeAt } from '../../src/second-factor/totp';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aTenant, anEndUser, bearer, logIn } from './support';
import { claimsOf, passwordStep, TestAuthenticator, withTotp } from './mfa-support';

describe('end-user second factor: TOTP and recovery codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.get<Clock>(Clock).reset());
  afterAll(async () => {
    await t.close();
  });

  const secondStep = (body: Record<string, unknown>) => t.http().post('/e/v1/auth/login/mfa/').send(body);

  it('enrols an authenticator: pending secret and otpauth URI, a wrong first code refused, the right one returns 10 recovery codes', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client);
    const { access_token } = await logIn(t, user);
    expect((await t.http().get('/e/v1/auth/mfa/').set(bearer(access_token))).body).toEqual({
      totp: false,
      passkeys: [],
      recovery_codes_left: 0,
    });

    const first = await t.http().post('/e/v1/auth/mfa/totp/').set(bearer(access_token)).send({}).expect(201);
    const started = await t.http().post('/e/v1/auth/mfa/totp/').set(bearer(access_token)).send({}).expect(201);
    expect(started.body.secret).not.toBe(first.body.secret); // a second call replaces the pending secret
    const uri = new URL(started.body.otpauth_uri as string);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(started.body.secret);
    expect(uri.searchParams.get('issuer')).toBe('Acme Notes');
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);

    const app = new TestAuthenticator(t, started.body.secret as string);
    const stale = new TestAuthenticator(t, first.body.secret as string);
    const wrong = await t.http().post('/e/v1/auth/mfa/totp/confirm/').set(bearer(access_token)).send({ code: stale.current() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_code');

    const ok = await t.http().post('/e/v1/auth/mfa/totp/confirm/').set(bearer(access_token)).send({ code: app.current() }).expect(200);
    expect(ok.body.recovery_codes).toHaveLength(10);
    expect(new Set(ok.body.recovery_codes).size).toBe(10);
    expect((await t.http().get('/e/v1/auth/mfa/').set(bearer(access_token))).body).toEqual({
      totp: true,
      passkeys: [],
      recovery_codes_left: 10,
    });

    const again = await t.http().post('/e/v1/auth/mfa/totp/').set(bearer(access_token)).send({});
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('totp_already_enabled');
  });

  it('stores the secret sealed and the recovery codes as keyed hashes, never in clear', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app, recoveryCodes } = await withTotp(t, user);
    const [totp] = await t.dataSource.query(`SELECT secret_encrypted FROM end_user_totp WHERE user_id = $1`, [user.id]);
    expect(totp.secret_encrypted).toMatch(/^v1:/);
    expect(totp.secret_encrypted).not.toContain(app.secret);
    const rows: { code_hash: string }[] = await t.dataSource.query(`SELECT code_hash FROM end_user_recovery_codes WHERE user_id = $1`, [
      user.id,
    ]);
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of recoveryCodes) expect(row.code_hash).not.toContain(code.replace('-', ''));
    }
  });

  it('asks for the second factor after the password, then issues tokens carrying amr and acr; sessions list amr', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app, accessToken: before } = await withTotp(t, user);

    const res = await t
      .http()
      .post('/e/v1/auth/login/')
      .send({ client_id: user.clientId, email: user.email, password: user.password })
      .expect(200);
    expect(res.body).toEqual({ mfa_required: true, mfa_token: expect.stringMatching(/^mfa_/), methods: ['totp', 'recovery_code'] });
    expect(res.body).not.toHaveProperty('access_token');

    const done = await secondStep({ mfa_token: res.body.mfa_token, code: app.next() }).expect(200);
    expect(done.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^rt_/),
      token_type: 'Bearer',
      expires_in: 900,
      session_id: expect.any(String),
    });
    expect(claimsOf(done.body.access_token)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], acr: 'https://refeds.org/profile/mfa' });
    expect(claimsOf(before)).toMatchObject({ amr: ['pwd'], acr: 'https://refeds.org/profile/sfa' });

    const list = await t.http().get('/user/security/sessions/').set(bearer(done.body.access_token)).expect(200);
    const byId = new Map((list.body.results as { id: string; amr: string[] }[]).map((s) => [s.id, s.amr]));
    expect(byId.get(done.body.session_id)).toEqual(['pwd', 'otp', 'mfa']);
    expect([...byId.values()]).toContainEqual(['pwd']);

    // A refreshed access token keeps the session's methods.
    const refreshed = await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: done.body.refresh_token }).expect(200);
    expect(claimsOf(refreshed.body.access_token)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
  });

  it('accepts a code once: the same code in its window is refused on the next sign-in', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app } = await withTotp(t, user);
    const code = app.next();
    await secondStep({ mfa_token: await passwordStep(t, user), code }).expect(200);
    const mfaToken = await passwordStep(t, user);
    const replay = await secondStep({ mfa_token: mfaToken, code });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('invalid_code');
    // The refused replay spent nothing: the same sign-in finishes with the next code.
    await secondStep({ mfa_token: mfaToken, code: app.next() }).expect(200);
  });

  it('does not accept the confirmation code for a sign-in (its step is spent)', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app } = await withTotp(t, user);
    const res = await secondStep({ mfa_token: await passwordStep(t, user), code: app.current() });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_code');
  });

  it('accepts codes one step early or late, not two', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app } = await withTotp(t, user);
    const clock = t.get<Clock>(Clock);
    clock.advance(90_000);
    const now = clock.now().getTime();
    const at = (ms: number) => totpCodeAt(app.secret, new Date(ms));
    const tooOld = (await secondStep({ mfa_token: await passwordStep(t, user), code: at(now - 60_000) })).body.error;
    expect(tooOld).toBe('invalid_code');
    await secondStep({ mfa_token: await passwordStep(t, user), code: at(now - 30_000) }).expect(200);
    await secondStep({ mfa_token: await passwordStep(t, user), code: at(now + 30_000) }).expect(200);
  });

  it('makes the mfa_token single-use, 5-minute and void after 5 wrong codes', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app } = await withTotp(t, user);

    const token = await passwordStep(t, user);
    await secondStep({ mfa_token: token, code: app.next() }).expect(200);
    const reused = await secondStep({ mfa_token: token, code: app.next() });
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe('mfa_token_invalid');

    const guessed = await passwordStep(t, user);
    for (let i = 0; i < 5; i++) {
      const wrong = await secondStep({ mfa_token: guessed, code: '000000' === app.current() ? '111111' : '000000' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_code');
    }
    const afterFive = await secondStep({ mfa_token: guessed, code: app.next() });
    expect(afterFive.status).toBe(401);
    expect(afterFive.body.error).toBe('mfa_token_invalid');

    const slow = await passwordStep(t, user);
    t.get<Clock>(Clock).advance(5 * 60 * 1000 + 1000);
    const expired = await secondStep({ mfa_token: slow, code: app.current() });
    expect(expired.body.error).toBe('mfa_token_invalid');
  });

  it('signs in with a recovery code once; a used code is refused', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { recoveryCodes } = await withTotp(t, user);
    const done = await secondStep({ mfa_token: await passwordStep(t, user), recovery_code: recoveryCodes[3].toLowerCase() }).expect(200);
    expect(claimsOf(done.body.access_token)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
    const again = await secondStep({ mfa_token: await passwordStep(t, user), recovery_code: recoveryCodes[3] });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('invalid_code');
    expect((await t.http().get('/e/v1/auth/mfa/').set(bearer(done.body.access_token))).body.recovery_codes_left).toBe(9);
  });

  it('lets exactly one of 50 concurrent sign-ins spend one recovery code', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { recoveryCodes } = await withTotp(t, user);
    const tokens: string[] = [];
    for (let i = 0; i < 50; i += 10) tokens.push(...(await Promise.all(Array.from({ length: 10 }, () => passwordStep(t, user)))));
    const answers = await Promise.all(tokens.map((mfa_token) => secondStep({ mfa_token, recovery_code: recoveryCodes[0] })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.error === 'invalid_code')).toHaveLength(49);
  });

  it('regenerates recovery codes: the new set works, the old set is dead', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { recoveryCodes, accessToken } = await withTotp(t, user);
    const fresh = await t.http().post('/e/v1/auth/mfa/recovery-codes/').set(bearer(accessToken)).send({}).expect(200);
    expect(fresh.body.recovery_codes).toHaveLength(10);
    const old = await secondStep({ mfa_token: await passwordStep(t, user), recovery_code: recoveryCodes[0] });
    expect(old.body.error).toBe('invalid_code');
    await secondStep({ mfa_token: await passwordStep(t, user), recovery_code: fresh.body.recovery_codes[0] }).expect(200);
  });

  it('removes the authenticator only with a current code or a recovery code; then the password alone signs in', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app, accessToken } = await withTotp(t, user);
    const refused = await t
      .http()
      .delete('/e/v1/auth/mfa/totp/')
      .set(bearer(accessToken))
      .send({ code: '123456' === app.next() ? '654321' : '123456' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_code');
    const missing = await t.http().delete('/e/v1/auth/mfa/totp/').set(bearer(accessToken)).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('validation_failed');
    await t.http().delete('/e/v1/auth/mfa/totp/').set(bearer(accessToken)).send({ code: app.next() }).expect(204);
    expect((await t.http().get('/e/v1/auth/mfa/').set(bearer(accessToken))).body).toEqual({
      totp: false,
      passkeys: [],
      recovery_codes_left: 0,
    });
    const tokens = await logIn(t, user);
    expect(claimsOf(tokens.access_token)).toMatchObject({ amr: ['pwd'] });
  });

  it('refuses null and malformed fields with 400 validation_failed, and anonymous calls with 401', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { access_token } = await logIn(t, user);
    for (const body of [{ code: null }, { code: '12345' }, { code: 123456 }]) {
      const res = await t.http().post('/e/v1/auth/mfa/totp/confirm/').set(bearer(access_token)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    for (const body of [
      { mfa_token: null, code: '123456' },
      { mfa_token: 'mfa_x', recovery_code: null },
      { mfa_token: 'mfa_x', code: null },
    ]) {
      const res = await secondStep(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    expect((await secondStep({ mfa_token: 'mfa_unknown', code: '123456' })).body.error).toBe('mfa_token_invalid');
    expect((await t.http().get('/e/v1/auth/mfa/')).status).toBe(401);
  });

  it('audits enrolment, challenges, regeneration and removal in the workspace', async () => {
    const { dev, ws, client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { app, accessToken } = await withTotp(t, user);
    await secondStep({ mfa_token: await passwordStep(t, user), code: '000000' === app.next() ? '111111' : '000000' }).expect(401);
    await secondStep({ mfa_token: await passwordStep(t, user), code: app.current() }).expect(200);
    await t.http().post('/e/v1/auth/mfa/recovery-codes/').set(bearer(accessToken)).send({}).expect(200);
    await t.http().delete('/e/v1/auth/mfa/totp/').set(bearer(accessToken)).send({ code: app.next() }).expect(204);
    await eventually(async () => {
      const page = await t.http().get('/developer/audit/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
      const types = (page.body.results as { event_type: string }[]).map((e) => e.event_type);
      for (const type of ['mfa_enroll', 'mfa_challenge_failure', 'mfa_challenge_success', 'recovery_codes_regenerate', 'mfa_remove']) {
        expect(types).toContain(type);
      }
    });
  });
});
