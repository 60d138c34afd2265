import { createTestApp, TestApp } from '../support/app';
import { anEndUser, anomaliesOf, EndUserAccount, freshIp, SignedIn, signInAndSettle, UA } from './sign-ins';

/* The end user's anomaly API. Geolocation is off here (no GEO_TOKEN): device detectors only. */
describe('GET /user/security/anomalies/ and POST .../{id}/ack/', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true', GEO_TOKEN: '' });
  });
  afterAll(() => t?.close());

  /** A user with `count` new_ip anomalies (one per sign-in from a new address). */
  async function userWithAnomalies(count: number): Promise<{ user: EndUserAccount; session: SignedIn }> {
    const user = await anEndUser(t);
    let session = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: freshIp() });
    for (let i = 0; i < count; i++) session = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: freshIp() });
    return { user, session };
  }

  it('lists only the caller’s anomalies, newest first, with every field of the record', async () => {
    const { session } = await userWithAnomalies(3);
    const other = await userWithAnomalies(1);
    const results = await anomaliesOf(t, session);
    expect(results).toHaveLength(3);
    const times = results.map((a) => Date.parse(a.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(results[0].session_id).toBe(session.sessionId);
    expect(Object.keys(results[0]).sort()).toEqual(
      [
        'id',
        'kind',
        'severity',
        'ip_address',
        'country',
        'city',
        'user_agent',
        'message',
        'metadata',
        'session_id',
        'notified_at',
        'acknowledged_at',
        'created_at',
      ].sort(),
    );
    const otherIds = (await anomaliesOf(t, other.session)).map((a) => a.id);
    expect(results.map((a) => a.id)).not.toEqual(expect.arrayContaining(otherIds));
  });

  it('honours limit and refuses values outside 1 to 200', async () => {
    const { session } = await userWithAnomalies(3);
    const two = await t.http().get('/user/security/anomalies/?limit=2').set(session.auth).expect(200);
    expect(two.body.results).toHaveLength(2);
    await t.http().get('/user/security/anomalies/?limit=1').set(session.auth).expect(200);
    await t.http().get('/user/security/anomalies/?limit=200').set(session.auth).expect(200);
    for (const bad of ['0', '201', '-1', 'abc', '1.5']) {
      const res = await t.http().get(`/user/security/anomalies/?limit=${bad}`).set(session.auth).expect(400);
      expect(res.body.error).toBe('validation_failed');
    }
  });

  it('returns 50 records by default', async () => {
    const { user, session } = await userWithAnomalies(1);
    // Seed 60 more rows directly: 60 real sign-ins would only slow the suite down.
    await t.dataSource.query(
      `INSERT INTO security_anomalies (workspace_id, user_id, session_id, kind, severity, message, metadata, created_at)
       SELECT workspace_id, user_id, gen_random_uuid(), 'new_ip', 'info', 'seeded', '{}', now() - make_interval(secs => g)
         FROM security_anomalies, generate_series(1, 60) g WHERE session_id = $1`,
      [session.sessionId],
    );
    const res = await t.http().get('/user/security/anomalies/').set(session.auth).expect(200);
    expect(res.body.results).toHaveLength(50);
    expect(user.email).toBeTruthy();
  });

  it('acknowledges once: a second call returns the same acknowledged_at', async () => {
    const { session } = await userWithAnomalies(1);
    const [anomaly] = await anomaliesOf(t, session);
    const first = await t.http().post(`/user/security/anomalies/${anomaly.id}/ack/`).set(session.auth).expect(200);
    expect(first.body).toMatchObject({ id: anomaly.id, kind: 'new_ip', acknowledged_at: expect.any(String) });
    const second = await t.http().post(`/user/security/anomalies/${anomaly.id}/ack/`).set(session.auth).expect(200);
    expect(second.body.acknowledged_at).toBe(first.body.acknowledged_at);
    const [listed] = await anomaliesOf(t, session);
    expect(listed.acknowledged_at).toBe(first.body.acknowledged_at);
  });

  it('answers 404 for another user’s anomaly, and leaves it unacknowledged', async () => {
    const owner = await userWithAnomalies(1);
    const intruder = await userWithAnomalies(0);
    const [anomaly] = await anomaliesOf(t, owner.session);
    const res = await t.http().post(`/user/security/anomalies/${anomaly.id}/ack/`).set(intruder.session.auth).expect(404);
    expect(res.body.error).toBe('not_found');
    expect((await anomaliesOf(t, owner.session))[0].acknowledged_at).toBeNull();
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const { session } = await userWithAnomalies(0);
    await t.http().post('/user/security/anomalies/00000000-0000-4000-8000-000000000000/ack/').set(session.auth).expect(404);
    await t.http().post('/user/security/anomalies/not-a-uuid/ack/').set(session.auth).expect(404);
  });

  it('requires an end-user access token', async () => {
    await t.http().get('/user/security/anomalies/').expect(401);
    await t.http().get('/user/security/anomalies/').set('Authorization', 'Bearer nope').expect(401);
  });

  it('still detects device anomalies without a geolocation token, and never flags by country', async () => {
    const user = await anEndUser(t);
    const ip = freshIp();
    await signInAndSettle(t, user, { ua: UA.chromeMac(), ip });
    const s = await signInAndSettle(t, user, { ua: UA.firefoxWindows, ip });
    expect(await anomaliesOf(t, s)).toEqual([expect.objectContaining({ kind: 'new_device', country: null, city: null })]);
  });
});
