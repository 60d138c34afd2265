import { freshIp, UA } from '../anomalies/sign-ins';
import { anEndUser, aTenant, bearer, logIn } from '../end-users/support';
import { createTestApp, TestApp } from '../support/app';
import { consistently, eventually } from '../support/eventually';
import { aReceiver, CAEP, POLL, PUSH, PushReceiver, SESSION_REVOKED, SetClaims, verifySet } from './ssf-support';

const CREDENTIAL_CHANGE = `${CAEP}credential-change`;

/** CAEP signals of audited changes outside SCIM: a session ended, a password changed, a sign-in blocked (decisions 0525, 0953). */
describe('shared signals from the audit log', () => {
  let t: TestApp;
  let push: PushReceiver;
  beforeAll(async () => {
    // Behind a proxy, as the sign-in policy's addresses are in production; pushes to loopback.
    t = await createTestApp({ TRUST_PROXY: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    push = await new PushReceiver().start();
  });
  afterAll(async () => {
    await push?.stop();
    await t?.close();
  });

  it('sends session-revoked when a person signs out and credential-change when they change their password', async () => {
    const tenant = await aTenant(t);
    const r = await aReceiver(t, tenant.dev, tenant.ws);
    const stream = (
      await t
        .http()
        .post('/ssf/streams')
        .set(r.auth)
        .send({ delivery: { method: POLL }, events_requested: [SESSION_REVOKED, CREDENTIAL_CHANGE] })
        .expect(201)
    ).body;
    const ada = await anEndUser(t, tenant.client);
    const other = await anEndUser(t, tenant.client);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(r.auth)
      .send({ stream_id: stream.stream_id, subject: { format: 'iss_sub', iss: t.baseUrl, sub: ada.id } })
      .expect(200);
    const session = await logIn(t, ada);
    await t
      .http()
      .post('/e/v1/auth/password')
      .set(bearer(session.access_token))
      .send({ current_password: ada.password, new_password: 'a-new-password-1' })
      .expect(200);
    await t.http().post('/e/v1/auth/logout/').set(bearer(session.access_token)).expect(204);
    const otherSession = await logIn(t, other);
    await t.http().post('/e/v1/auth/logout/').set(bearer(otherSession.access_token)).expect(204);

    const path = new URL(stream.delivery.endpoint_url).pathname;
    const sets = await eventually(
      async () => {
        const res = await t.http().post(path).set(r.auth).send({ returnImmediately: true }).expect(200);
        expect(Object.keys(res.body.sets)).toHaveLength(2);
        return Object.values(res.body.sets as Record<string, string>);
      },
      { timeoutMs: 30_000 },
    );
    const claims = await Promise.all(sets.map((token) => verifySet(t, token, r.client_id)));
    expect(claims.map((c) => Object.keys(c.events)[0])).toEqual([CREDENTIAL_CHANGE, SESSION_REVOKED]);
    for (const c of claims) expect(c.sub_id).toEqual({ format: 'iss_sub', iss: t.baseUrl, sub: ada.id });
    expect(claims[0].events[CREDENTIAL_CHANGE]).toMatchObject({
      credential_type: 'password',
      change_type: 'update',
      initiating_entity: 'user',
      event_timestamp: expect.any(Number),
    });
    expect(claims[1].events[SESSION_REVOKED]).toMatchObject({ initiating_entity: 'user', event_timestamp: expect.any(Number) });
  });

  it('pushes session-revoked (initiating_entity policy) when the sign-in policy blocks a sign-in, whose sessions it ended', async () => {
    const tenant = await aTenant(t);
    const r = await aReceiver(t, tenant.dev, tenant.ws);
    const stream = (
      await t
        .http()
        .post('/ssf/streams')
        .set(r.auth)
        .send({ delivery: { method: PUSH, endpoint_url: push.url }, events_requested: [SESSION_REVOKED] })
        .expect(201)
    ).body;
    const ada = await anEndUser(t, tenant.client);
    const bob = await anEndUser(t, tenant.client);
    for (const person of [ada, bob]) {
      await t
        .http()
        .post('/ssf/subjects/add')
        .set(r.auth)
        .send({ stream_id: stream.stream_id, subject: { format: 'email', email: person.email } })
        .expect(200);
    }
    const home = { 'User-Agent': UA.chromeMac(), 'X-Forwarded-For': freshIp() };
    const adaAtHome = await logIn(t, ada, home);
    const bobAtHome = await logIn(t, bob, { ...home, 'X-Forwarded-For': freshIp() });
    await t
      .http()
      .put(`/e/v1/developer/workspaces/${tenant.ws.id}/sign-in-policy/`)
      .set(tenant.dev.auth)
      .send({ new_ip: 'block' })
      .expect(200);

    const blocked = await t
      .http()
      .post('/e/v1/auth/login/')
      .set({ ...home, 'X-Forwarded-For': freshIp() })
      .send({ client_id: ada.clientId, email: ada.email, password: ada.password });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toBe('sign_in_blocked');
    // The block ended Ada's sessions: her tokens from home die; Bob's do not.
    await t.http().get('/user/security/sessions/').set(bearer(adaAtHome.access_token)).expect(401);
    await t.http().post('/e/v1/auth/token/refresh/').send({ refresh_token: adaAtHome.refresh_token }).expect(401);
    await t.http().get('/user/security/sessions/').set(bearer(bobAtHome.access_token)).expect(200);

    const mine = async () => {
      const got: SetClaims[] = [];
      for (const p of push.received) {
        const aud = JSON.parse(Buffer.from(p.token.split('.')[1], 'base64url').toString()).aud;
        if (aud === r.client_id) got.push(await verifySet(t, p.token, r.client_id));
      }
      return got;
    };
    const [set] = await eventually(
      async () => {
        const got = await mine();
        expect(got).toHaveLength(1);
        return got;
      },
      { timeoutMs: 30_000 },
    );
    expect(set.sub_id).toEqual({ format: 'email', email: ada.email });
    expect(set.events[SESSION_REVOKED]).toEqual({
      initiating_entity: 'policy',
      reason_admin: { en: 'Sign-in blocked by the sign-in policy (new_ip)' },
      event_timestamp: expect.any(Number),
    });
    // Nothing about Bob, whose sign-ins were not blocked.
    await consistently(async () => expect(await mine()).toHaveLength(1), { forMs: 1000 });
  });

  it('never acknowledges a sign-out whose signal could not be recorded: it fails whole, and the retry is signalled', async () => {
    const tenant = await aTenant(t);
    const r = await aReceiver(t, tenant.dev, tenant.ws);
    const stream = (
      await t
        .http()
        .post('/ssf/streams')
        .set(r.auth)
        .send({ delivery: { method: POLL }, events_requested: [SESSION_REVOKED] })
        .expect(201)
    ).body;
    const ada = await anEndUser(t, tenant.client);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(r.auth)
      .send({ stream_id: stream.stream_id, subject: { format: 'iss_sub', iss: t.baseUrl, sub: ada.id } })
      .expect(200);
    const session = await logIn(t, ada);

    // The audit table refuses the sign-out's row, as a broken audit store would (a constraint it cannot meet).
    await t.dataSource.query(`ALTER TABLE audit_events ADD CONSTRAINT test_reject_logout CHECK (event_type <> 'logout') NOT VALID`);
    try {
      const refused = await t.http().post('/e/v1/auth/logout/').set(bearer(session.access_token));
      expect(refused.status).toBeGreaterThanOrEqual(500);
      // Not acknowledged, so nothing changed: the session still works.
      await t.http().get('/user/security/sessions/').set(bearer(session.access_token)).expect(200);
    } finally {
      await t.dataSource.query(`ALTER TABLE audit_events DROP CONSTRAINT test_reject_logout`);
    }
    await t.http().post('/e/v1/auth/logout/').set(bearer(session.access_token)).expect(204);
    await t.http().get('/user/security/sessions/').set(bearer(session.access_token)).expect(401);

    const path = new URL(stream.delivery.endpoint_url).pathname;
    const [token] = await eventually(
      async () => {
        const res = await t.http().post(path).set(r.auth).send({ returnImmediately: true }).expect(200);
        expect(Object.keys(res.body.sets)).toHaveLength(1);
        return Object.values(res.body.sets as Record<string, string>);
      },
      { timeoutMs: 30_000 },
    );
    const claims = await verifySet(t, token, r.client_id);
    expect(Object.keys(claims.events)).toEqual([SESSION_REVOKED]);
    expect(claims.sub_id).toEqual({ format: 'iss_sub', iss: t.baseUrl, sub: ada.id });
  });
});
