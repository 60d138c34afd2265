import type { TestApp } from '../support/app';
import { consistently, eventually } from '../support/eventually';
import { aScimTenant, aScimUser, PATCH_OP, ScimTenant } from '../scim/scim-support';
import {
  ACCOUNT_DISABLED,
  aReceiver,
  aTransmitter,
  IDENTIFIER_CHANGED,
  POLL,
  PUSH,
  PushReceiver,
  Receiver,
  SESSION_REVOKED,
  SetClaims,
  VERIFICATION,
  verifySet,
} from './ssf-support';

/**
 * The OpenID Foundation's SSF transmitter test plans (openid-ssf-transmitter-test-plan and its
 * caep_interop variant, push and poll), re-enacted module by module from the suite's published
 * module list and summaries: each `it` is named for the module it plays.
 */
describe('OIDF SSF transmitter test plan, re-enacted', () => {
  const transmitter = aTransmitter();
  let t: TestApp;
  let push: PushReceiver;
  beforeAll(() => {
    ({ t, push } = transmitter);
  });

  const INVALID = { Authorization: 'Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln' };
  const fresh = async (): Promise<{ s: ScimTenant; r: Receiver }> => {
    const s = await aScimTenant(t);
    return { s, r: await aReceiver(t, s.dev, s.ws) };
  };
  const createStream = (r: Receiver, body: Record<string, unknown>) => t.http().post('/ssf/streams').set(r.auth).send(body);
  const pollBody = (r: Receiver, path: string, body: Record<string, unknown>) =>
    t.http().post(path).set(r.auth).send(body).expect(200) as Promise<{ body: { sets: Record<string, string>; moreAvailable: boolean } }>;
  const pushedTo = (r: Receiver) => push.setsFor(t, r);
  const typeOf = (c: SetClaims) => Object.keys(c.events)[0];

  it('openid-ssf-stream-control-happy-path: create, read, update, replace, status and delete a stream', async () => {
    const { r } = await fresh();
    const created = await createStream(r, {
      delivery: { method: POLL },
      events_requested: [ACCOUNT_DISABLED],
      description: 'first',
    }).expect(201);
    const id = created.body.stream_id as string;
    await t.http().get('/ssf/streams').query({ stream_id: id }).set(r.auth).expect(200, created.body);
    expect((await t.http().get('/ssf/streams').set(r.auth).expect(200)).body).toEqual([created.body]);
    const updated = await t
      .http()
      .patch('/ssf/streams')
      .set(r.auth)
      .send({ stream_id: id, events_requested: [SESSION_REVOKED] })
      .expect(200);
    expect(updated.body).toMatchObject({ events_requested: [SESSION_REVOKED], events_delivered: [SESSION_REVOKED], description: 'first' });
    // A replace carries back the transmitter-supplied members it read; they are accepted, the rest is replaced.
    const replaced = await t
      .http()
      .put('/ssf/streams')
      .set(r.auth)
      .send({ ...updated.body, description: undefined, events_requested: [ACCOUNT_DISABLED, 'urn:example:unsupported'] })
      .expect(200);
    expect(replaced.body.events_delivered).toEqual([ACCOUNT_DISABLED]);
    expect(replaced.body.description).toBeUndefined();
    await t.http().get('/ssf/status').query({ stream_id: id }).set(r.auth).expect(200, { stream_id: id, status: 'enabled' });
    await t.http().post('/ssf/status').set(r.auth).send({ stream_id: id, status: 'paused', reason: 'maintenance' }).expect(200, {
      stream_id: id,
      status: 'paused',
      reason: 'maintenance',
    });
    await t.http().delete('/ssf/streams').query({ stream_id: id }).set(r.auth).expect(204);
    await t.http().get('/ssf/streams').query({ stream_id: id }).set(r.auth).expect(404);
  });

  it('openid-ssf-stream-control-error-create-stream-with-broken-input: 400 for a body that is not a stream configuration', async () => {
    const { r } = await fresh();
    await t.http().post('/ssf/streams').set(r.auth).set('Content-Type', 'application/json').send('{"delivery":').expect(400);
    await createStream(r, { delivery: { method: 'urn:example:carrier-pigeon' } }).expect(400);
    await createStream(r, { delivery: { method: PUSH } }).expect(400);
    await createStream(r, { delivery: { method: PUSH, endpoint_url: 'not a url' } }).expect(400);
    await createStream(r, { events_requested: 'all of them' }).expect(400);
    await t.http().get('/ssf/streams').set(r.auth).expect(200, []);
  });

  it('openid-ssf-stream-control-error-create-stream-with-invalid-token, -read-, -delete-: 401', async () => {
    await t
      .http()
      .post('/ssf/streams')
      .set(INVALID)
      .send({ delivery: { method: POLL } })
      .expect(401);
    await t
      .http()
      .post('/ssf/streams')
      .send({ delivery: { method: POLL } })
      .expect(401);
    await t.http().get('/ssf/streams').set(INVALID).expect(401);
    await t.http().delete('/ssf/streams').query({ stream_id: '00000000-0000-4000-8000-000000000000' }).set(INVALID).expect(401);
  });

  it('openid-ssf-stream-control-error-create-stream-with-duplicate-config: 409 for a second stream', async () => {
    const { r } = await fresh();
    await createStream(r, { delivery: { method: POLL } }).expect(201);
    const res = await createStream(r, { delivery: { method: POLL } }).expect(409);
    expect(res.body.error).toBe('conflict');
  });

  it('openid-ssf-stream-control-error-read-unknown-stream, -delete-unknown-stream: 404', async () => {
    const { r } = await fresh();
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      await t.http().get('/ssf/streams').query({ stream_id: id }).set(r.auth).expect(404);
      await t.http().delete('/ssf/streams').query({ stream_id: id }).set(r.auth).expect(404);
    }
  });

  it('openid-ssf-transmitter-stream-verification-poll-only, -poll-and-ack, -ack-only', async () => {
    const { r } = await fresh();
    const stream = (await createStream(r, { delivery: { method: POLL } }).expect(201)).body;
    const path = new URL(stream.delivery.endpoint_url).pathname;
    await t.http().post('/ssf/verify').set(r.auth).send({ stream_id: stream.stream_id, state: 'state-1' }).expect(204);
    // poll-only: a long poll returns the verification SET as soon as it is there.
    const first = await pollBody(r, path, {});
    const [[jti, token]] = Object.entries(first.body.sets);
    const claims = await verifySet(t, token, r.client_id);
    expect(claims).toMatchObject({
      jti,
      sub_id: { format: 'opaque', id: stream.stream_id },
      events: { [VERIFICATION]: { state: 'state-1' } },
    });
    // poll-and-ack: acknowledge the first while asking for more; the second verification comes.
    await t.http().post('/ssf/verify').set(r.auth).send({ stream_id: stream.stream_id, state: 'state-2' }).expect(204);
    const second = await pollBody(r, path, { ack: [jti], returnImmediately: true });
    const [[jti2, token2]] = Object.entries(second.body.sets);
    expect((await verifySet(t, token2, r.client_id)).events[VERIFICATION]).toEqual({ state: 'state-2' });
    // ack-only: maxEvents 0 acknowledges and returns nothing.
    expect((await pollBody(r, path, { ack: [jti2], maxEvents: 0 })).body).toEqual({ sets: {}, moreAvailable: false });
    expect((await pollBody(r, path, { returnImmediately: true })).body).toEqual({ sets: {}, moreAvailable: false });
  });

  it('openid-ssf-transmitter-stream-verification-push: pushed with the authorization header the stream configured', async () => {
    const { r } = await fresh();
    const stream = (
      await createStream(r, { delivery: { method: PUSH, endpoint_url: push.url, authorization_header: 'Bearer push-secret' } }).expect(201)
    ).body;
    await t.http().post('/ssf/verify').set(r.auth).send({ stream_id: stream.stream_id, state: 'pushed' }).expect(204);
    const [got] = await eventually(async () => {
      const list = await pushedTo(r);
      expect(list).toHaveLength(1);
      return list;
    });
    expect(got.authorization).toBe('Bearer push-secret');
    expect(got.claims.events[VERIFICATION]).toEqual({ state: 'pushed' });
  });

  it('openid-ssf-transmitter-stream-verification-error-push-no-auth: no Authorization header when none was configured', async () => {
    const { r } = await fresh();
    const stream = (await createStream(r, { delivery: { method: PUSH, endpoint_url: push.url } }).expect(201)).body;
    await t.http().post('/ssf/verify').set(r.auth).send({ stream_id: stream.stream_id }).expect(204);
    const [got] = await eventually(async () => {
      const list = await pushedTo(r);
      expect(list).toHaveLength(1);
      return list;
    });
    expect(got.authorization).toBeUndefined();
    expect(got.claims.events[VERIFICATION]).toEqual({});
  });

  it('openid-ssf-transmitter-stream-caep-interop: session-revoked about email and iss_sub subjects', async () => {
    const { s, r } = await fresh();
    const stream = (
      await createStream(r, { delivery: { method: PUSH, endpoint_url: push.url }, events_requested: [SESSION_REVOKED] }).expect(201)
    ).body;
    const [ada, bob] = [await aScimUser(s), await aScimUser(s)];
    const subjects = [
      { format: 'email', email: ada.userName.toUpperCase() },
      { format: 'iss_sub', iss: t.baseUrl, sub: bob.id },
    ];
    for (const subject of subjects) {
      await t.http().post('/ssf/subjects/add').set(r.auth).send({ stream_id: stream.stream_id, subject }).expect(200);
    }
    for (const u of [ada, bob]) {
      await s.patch(`/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);
    }
    const got = await eventually(
      async () => {
        const list = await pushedTo(r);
        expect(list).toHaveLength(2);
        return list.map((p) => p.claims);
      },
      { timeoutMs: 20_000 },
    );
    expect(got.map(typeOf)).toEqual([SESSION_REVOKED, SESSION_REVOKED]);
    expect(got.map((c) => c.sub_id)).toEqual(expect.arrayContaining(subjects));
    for (const c of got) expect(c.events[SESSION_REVOKED]).toMatchObject({ event_timestamp: expect.any(Number) });
  });

  it('openid-ssf-stream-subject-control: a removed subject gets no more events; malformed subjects are 400', async () => {
    const { s, r } = await fresh();
    const stream = (await createStream(r, { delivery: { method: POLL }, events_requested: [ACCOUNT_DISABLED] }).expect(201)).body;
    const ada = await aScimUser(s);
    const subject = { format: 'opaque', id: ada.id };
    await t.http().post('/ssf/subjects/add').set(r.auth).send({ stream_id: stream.stream_id, subject }).expect(200);
    await t.http().post('/ssf/subjects/remove').set(r.auth).send({ stream_id: stream.stream_id, subject }).expect(204);
    for (const bad of [{ format: 'phone_number', phone_number: '+1' }, { format: 'email' }, { format: 'email', email: 'no-at-sign' }, {}]) {
      await t.http().post('/ssf/subjects/add').set(r.auth).send({ stream_id: stream.stream_id, subject: bad }).expect(400);
    }
    await s.patch(`/Users/${ada.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);
    const path = new URL(stream.delivery.endpoint_url).pathname;
    await consistently(async () => expect((await pollBody(r, path, { returnImmediately: true })).body.sets).toEqual({}), { forMs: 1500 });
  });

  it('RISC identifier-changed names the old email, with the new one as new-value', async () => {
    const { s, r } = await fresh();
    const stream = (await createStream(r, { delivery: { method: POLL }, events_requested: [IDENTIFIER_CHANGED] }).expect(201)).body;
    const ada = await aScimUser(s);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(r.auth)
      .send({ stream_id: stream.stream_id, subject: { format: 'email', email: ada.userName } })
      .expect(200);
    const newEmail = `renamed.${ada.userName}`;
    await s
      .patch(`/Users/${ada.id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'replace', path: 'userName', value: newEmail },
          { op: 'replace', path: 'emails', value: [{ value: newEmail, primary: true, type: 'work' }] },
        ],
      })
      .expect(200);
    const path = new URL(stream.delivery.endpoint_url).pathname;
    const sets = await eventually(
      async () => {
        const res = await pollBody(r, path, { returnImmediately: true });
        expect(Object.keys(res.body.sets)).toHaveLength(1);
        return res.body.sets;
      },
      { timeoutMs: 20_000 },
    );
    const claims = await verifySet(t, Object.values(sets)[0], r.client_id);
    expect(claims.sub_id).toEqual({ format: 'email', email: ada.userName });
    expect(claims.events[IDENTIFIER_CHANGED]).toEqual({ 'new-value': newEmail });
  });

  it('a paused stream holds its events and delivers them on resume; a disabled one drops them', async () => {
    const { s, r } = await fresh();
    const stream = (await createStream(r, { delivery: { method: POLL }, events_requested: [ACCOUNT_DISABLED] }).expect(201)).body;
    const path = new URL(stream.delivery.endpoint_url).pathname;
    const [ada, bob] = [await aScimUser(s), await aScimUser(s)];
    for (const u of [ada, bob]) {
      await t
        .http()
        .post('/ssf/subjects/add')
        .set(r.auth)
        .send({ stream_id: stream.stream_id, subject: { format: 'opaque', id: u.id } })
        .expect(200);
    }
    const deactivate = (id: string) =>
      s.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);
    await t.http().post('/ssf/status').set(r.auth).send({ stream_id: stream.stream_id, status: 'paused' }).expect(200);
    await deactivate(ada.id);
    await consistently(async () => expect((await pollBody(r, path, { returnImmediately: true })).body.sets).toEqual({}), { forMs: 1500 });
    await t.http().post('/ssf/status').set(r.auth).send({ stream_id: stream.stream_id, status: 'enabled' }).expect(200);
    const held = await eventually(
      async () => {
        const res = await pollBody(r, path, { returnImmediately: true });
        expect(Object.keys(res.body.sets)).toHaveLength(1);
        return res.body.sets;
      },
      { timeoutMs: 20_000 },
    );
    expect((await verifySet(t, Object.values(held)[0], r.client_id)).sub_id).toEqual({ format: 'opaque', id: ada.id });
    await pollBody(r, path, { ack: Object.keys(held), maxEvents: 0 });

    await t.http().post('/ssf/status').set(r.auth).send({ stream_id: stream.stream_id, status: 'disabled' }).expect(200);
    await deactivate(bob.id);
    await eventually(async () => {
      const [{ position }] = await t.dataSource.query(`SELECT position FROM ssf_streams WHERE id = $1`, [stream.stream_id]);
      // Past bob's deactivation once it is numbered (an unnumbered event is not in the feed yet).
      const [{ seq }] = await t.dataSource.query(
        `SELECT max(seq) AS seq FROM directory_events WHERE workspace_id = $1 AND resource_id = $2 AND type = 'directory.user.deactivated'`,
        [s.ws.id, bob.id],
      );
      expect(seq).not.toBeNull();
      expect(Number(position)).toBeGreaterThanOrEqual(Number(seq));
    });
    await t.http().post('/ssf/status').set(r.auth).send({ stream_id: stream.stream_id, status: 'enabled' }).expect(200);
    await consistently(async () => expect((await pollBody(r, path, { returnImmediately: true })).body.sets).toEqual({}), { forMs: 1000 });
  });
});
