import { anEndUser, aTenant, bearer, logIn } from '../end-users/support';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aReceiver, CAEP, POLL, SESSION_REVOKED, verifySet } from './ssf-support';

const CREDENTIAL_CHANGE = `${CAEP}credential-change`;

/** CAEP signals of audited changes outside SCIM: a session ended, a password changed (decision 0525). */
describe('shared signals from the audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
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
});
