import { Clock } from '../../src/common/clock';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { claimsOf, passwordStep } from './mfa-support';
import { SoftAuthenticator } from './soft-authenticator';
import { aTenant, anEndUser, bearer, logIn, TestEndUser } from './support';

describe('end-user passkeys (WebAuthn) through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.get<Clock>(Clock).reset());
  afterAll(async () => {
    await t.close();
  });

  const api = (token: string) => ({
    options: () => t.http().post('/e/v1/auth/mfa/passkeys/options/').set(bearer(token)).send({}),
    register: (body: Record<string, unknown>) => t.http().post('/e/v1/auth/mfa/passkeys/').set(bearer(token)).send(body),
    list: () => t.http().get('/e/v1/auth/mfa/passkeys/').set(bearer(token)),
    rename: (id: string, body: unknown) =>
      t
        .http()
        .patch(`/e/v1/auth/mfa/passkeys/${id}/`)
        .set(bearer(token))
        .send(body as object),
    remove: (id: string) => t.http().delete(`/e/v1/auth/mfa/passkeys/${id}/`).set(bearer(token)),
    status: () => t.http().get('/e/v1/auth/mfa/').set(bearer(token)),
  });

  /** Sign in with the password, register a passkey of `device`; returns the access token and the answer. */
  async function withPasskey(user: TestEndUser, device: SoftAuthenticator, name = 'Laptop') {
    const { access_token } = await logIn(t, user);
    const options = await api(access_token).options().expect(200);
    const added = await api(access_token).register({ name, credential: device.register(options.body) });
    if (added.status !== 201) throw new Error(`register failed: ${added.status} ${JSON.stringify(added.body)}`);
    return { accessToken: access_token, added: added.body as { passkey: { id: string }; recovery_codes: string[] | null } };
  }

  const optionsFor = (mfaToken: string) => t.http().post('/e/v1/auth/login/mfa/passkey/options/').send({ mfa_token: mfaToken });
  const secondStep = (body: Record<string, unknown>) => t.http().post('/e/v1/auth/login/mfa/').send(body);

  it('registers several passkeys, names and renames them, removes one; the first brings ten recovery codes', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client);
    const device = new SoftAuthenticator(t.baseUrl);
    const { accessToken, added } = await withPasskey(user, device, 'MacBook Touch ID');
    expect(added.recovery_codes).toHaveLength(10);

    const options = await api(accessToken).options().expect(200);
    expect(options.body).toMatchObject({
      rp: { id: new URL(t.baseUrl).hostname, name: 'Acme Notes' },
      user: { name: user.email },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required' },
      excludeCredentials: [{ id: device.credentials[0].id.toString('base64url') }],
    });
    const second = await api(accessToken)
      .register({ name: 'YubiKey', credential: device.register(options.body) })
      .expect(201);
    expect(second.body.recovery_codes).toBeNull();

    const listed = (await api(accessToken).list().expect(200)).body.results as { id: string; name: string; last_used_at: null }[];
    expect(listed.map((p) => p.name)).toEqual(['MacBook Touch ID', 'YubiKey']);
    expect((await api(accessToken).status().expect(200)).body).toMatchObject({ totp: false, passkeys: listed, recovery_codes_left: 10 });

    const renamed = await api(accessToken).rename(listed[1].id, { name: 'Work YubiKey' }).expect(200);
    expect(renamed.body).toMatchObject({ id: listed[1].id, name: 'Work YubiKey' });
    await api(accessToken).remove(listed[0].id).expect(204);
    expect(((await api(accessToken).list()).body.results as { name: string }[]).map((p) => p.name)).toEqual(['Work YubiKey']);
    await api(accessToken).remove(listed[0].id).expect(404);
  });

  it('stores the public key per user and workspace, never the private part; refuses a registration whose challenge was spent or expired', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const device = new SoftAuthenticator(t.baseUrl);
    const { access_token } = await logIn(t, user);
    const options = (await api(access_token).options().expect(200)).body;
    await api(access_token)
      .register({ credential: device.register(options) })
      .expect(201);
    // The same challenge again: spent.
    const replay = await api(access_token).register({ credential: device.register(options) });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('passkey_not_accepted');
    // A challenge older than 5 minutes: expired.
    const late = (await api(access_token).options().expect(200)).body;
    t.get<Clock>(Clock).advance(5 * 60 * 1000 + 1000);
    expect((await api(access_token).register({ credential: device.register(late) })).body.error).toBe('passkey_not_accepted');
    // Another origin (a phishing site relaying the ceremony) is refused.
    t.get<Clock>(Clock).reset();
    const fresh = (await api(access_token).options().expect(200)).body;
    const phished = await api(access_token).register({ credential: device.register(fresh, { origin: 'https://evil.example' }) });
    expect(phished.body.error).toBe('passkey_not_accepted');

    const rows = (await t.dataSource.query(`SELECT workspace_id, user_id, public_key, name FROM end_user_passkeys WHERE user_id = $1`, [
      user.id,
    ])) as { workspace_id: string; public_key: Buffer; name: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0].public_key.length).toBeGreaterThan(60); // a COSE EC2 public key
    expect(rows[0].name).toMatch(/^Passkey added \d{4}-\d{2}-\d{2}$/);
    const [{ left }] = await t.dataSource.query(
      `SELECT count(*)::int AS left FROM webauthn_challenges WHERE user_id = $1 AND purpose = 'register'`,
      [user.id],
    );
    expect(left).toBe(1); // the phished one spent its challenge too; only the expired one is left (pruned later)
  });

  it('finishes a sign-in with a passkey as the second factor: amr hwk for a device-bound key, swk for a synced one', async () => {
    const { client } = await aTenant(t);
    for (const [device, key] of [
      [new SoftAuthenticator(t.baseUrl), 'hwk'],
      [new SoftAuthenticator(t.baseUrl, { synced: true }), 'swk'],
    ] as const) {
      const user = await anEndUser(t, client);
      await withPasskey(user, device);
      const login = await t.http().post('/e/v1/auth/login/').send({ client_id: user.clientId, email: user.email, password: user.password });
      expect(login.body).toMatchObject({ mfa_required: true, methods: ['passkey', 'recovery_code'] });
      expect(login.body.access_token).toBeUndefined();
      const options = await optionsFor(login.body.mfa_token).expect(200);
      expect(options.body.allowCredentials).toEqual([expect.objectContaining({ id: device.credentials[0].id.toString('base64url') })]);
      const done = await secondStep({ mfa_token: login.body.mfa_token, passkey: device.assert(options.body) }).expect(200);
      expect(claimsOf(done.body.access_token)).toMatchObject({ amr: ['pwd', key, 'mfa'], acr: 'https://refeds.org/profile/mfa' });
      const sessions = await t.http().get('/user/security/sessions/').set(bearer(done.body.access_token)).expect(200);
      expect(sessions.body.results.find((s: { current: boolean }) => s.current).amr).toEqual(['pwd', key, 'mfa']);
      const [row] = await t.dataSource.query(`SELECT sign_count::int AS n, last_used_at FROM end_user_passkeys WHERE user_id = $1`, [
        user.id,
      ]);
      expect(row.n).toBe(1);
      expect(row.last_used_at).not.toBeNull();
    }
  });

  it('refuses a replayed assertion, a counter that went backwards (a cloned key) and another user’s passkey', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const device = new SoftAuthenticator(t.baseUrl);
    await withPasskey(user, device);

    let token = await passwordStep(t, user);
    const first = (await optionsFor(token).expect(200)).body;
    const assertion = device.assert(first);
    await secondStep({ mfa_token: token, passkey: assertion }).expect(200);
    // The same assertion on a new sign-in: its challenge is spent.
    token = await passwordStep(t, user);
    await optionsFor(token).expect(200);
    const replay = await secondStep({ mfa_token: token, passkey: assertion });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('invalid_code');
    // A counter lower than the stored one.
    const cloned = device.assert((await optionsFor(token).expect(200)).body, device.credentials[0], { counter: 1 });
    expect((await secondStep({ mfa_token: token, passkey: cloned })).body.error).toBe('invalid_code');

    // Another account's passkey answering this account's challenge.
    const other = await anEndUser(t, client);
    const otherDevice = new SoftAuthenticator(t.baseUrl);
    await withPasskey(other, otherDevice);
    const foreign = otherDevice.assert((await optionsFor(token).expect(200)).body);
    expect((await secondStep({ mfa_token: token, passkey: foreign })).body.error).toBe('invalid_code');
    // The right one still works (3 wrong answers so far, under the limit of 5).
    await secondStep({ mfa_token: token, passkey: device.assert((await optionsFor(token).expect(200)).body) }).expect(200);
  });

  it('does not let a passkey of one workspace answer in another, nor reach another user’s passkeys by id', async () => {
    const a = await aTenant(t);
    const b = await aTenant(t);
    const device = new SoftAuthenticator(t.baseUrl);
    const userA = await anEndUser(t, a.client);
    const { added } = await withPasskey(userA, device);
    // The same person in workspace B, with the same email and a passkey of their own.
    const userB = await anEndUser(t, b.client, { email: userA.email });
    const { accessToken: tokenB } = await withPasskey(userB, new SoftAuthenticator(t.baseUrl));
    const token = await passwordStep(t, userB);
    const options = (await optionsFor(token).expect(200)).body;
    expect((await secondStep({ mfa_token: token, passkey: device.assert(options) })).body.error).toBe('invalid_code');

    await api(tokenB).rename(added.passkey.id, { name: 'taken' }).expect(404);
    await api(tokenB).remove(added.passkey.id).expect(404);
    await api(tokenB).remove('not-a-uuid').expect(404);
    const [row] = await t.dataSource.query(`SELECT name FROM end_user_passkeys WHERE id = $1`, [added.passkey.id]);
    expect(row.name).toBe('Laptop');
  });

  it('holds at most 20 passkeys per account, also when ceremonies were started before any finished', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const device = new SoftAuthenticator(t.baseUrl);
    const { access_token } = await logIn(t, user);
    const started = [];
    for (let i = 0; i < 21; i++) started.push((await api(access_token).options().expect(200)).body);
    for (const options of started.slice(0, 20)) {
      await api(access_token)
        .register({ credential: device.register(options) })
        .expect(201);
    }
    const late = await api(access_token).register({ credential: device.register(started[20]) });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('too_many_passkeys');
    expect((await api(access_token).options()).body.error).toBe('too_many_passkeys');
  });

  it('voids the recovery codes with the last factor; the password alone signs in again', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { accessToken, added } = await withPasskey(user, new SoftAuthenticator(t.baseUrl));
    await api(accessToken).remove(added.passkey.id).expect(204);
    expect((await api(accessToken).status().expect(200)).body).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
    const login = await t.http().post('/e/v1/auth/login/').send({ client_id: user.clientId, email: user.email, password: user.password });
    expect(login.body.access_token).toEqual(expect.any(String));
  });

  it('refuses malformed input with 400 and a clear code, and offers no passkey options to a sign-in without one', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const { access_token } = await logIn(t, user);
    for (const body of [
      {},
      { credential: null },
      { credential: 'x' },
      { credential: {}, name: 5 },
      { credential: {}, name: 'x'.repeat(65) },
    ]) {
      const res = await api(access_token).register(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    for (const credential of [
      {},
      { id: 'a', rawId: 'b', type: 'public-key', response: {} },
      { id: 'a!', rawId: 'a!', type: 'public-key', response: {} },
    ]) {
      const res = await api(access_token).register({ credential });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_passkey_response');
    }
    expect((await api(access_token).rename('00000000-0000-4000-8000-000000000000', {})).status).toBe(400);
    expect((await optionsFor('mfa_unknown')).body.error).toBe('mfa_token_invalid');
    expect((await secondStep({ mfa_token: 'mfa_x', passkey: 'x' })).status).toBe(400);
    expect((await t.http().get('/e/v1/auth/mfa/passkeys/')).status).toBe(401);
  });

  it('audits passkey enrolment, second steps and removal', async () => {
    const { dev, ws, client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const device = new SoftAuthenticator(t.baseUrl);
    const { accessToken, added } = await withPasskey(user, device);
    const token = await passwordStep(t, user);
    await secondStep({ mfa_token: token, passkey: device.assert((await optionsFor(token)).body) }).expect(200);
    await api(accessToken).remove(added.passkey.id).expect(204);
    await eventually(async () => {
      const page = await t.http().get('/developer/audit/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
      const events = page.body.results as { event_type: string; metadata: Record<string, unknown> }[];
      expect(events.find((e) => e.event_type === 'mfa_enroll')?.metadata).toMatchObject({
        method: 'passkey',
        passkey_id: added.passkey.id,
      });
      expect(events.find((e) => e.event_type === 'mfa_challenge_success')?.metadata).toMatchObject({ method: 'passkey' });
      expect(events.find((e) => e.event_type === 'mfa_remove')?.metadata).toMatchObject({ method: 'passkey' });
    });
  });
});
