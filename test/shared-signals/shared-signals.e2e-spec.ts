import type { TestApp } from '../support/app';
import { consistently, eventually } from '../support/eventually';
import { aDeveloper, aWorkspace } from '../support/factories';
import { aScimTenant, aScimUser, PATCH_OP, ScimTenant } from '../scim/scim-support';
import {
  ACCOUNT_DISABLED,
  ACCOUNT_ENABLED,
  aReceiver,
  aTransmitter,
  POLL,
  PUSH,
  PushReceiver,
  Receiver,
  SESSION_REVOKED,
  verifySet,
} from './ssf-support';

/** The Shared Signals transmitter end to end: a receiver registers, gets a token, creates its stream, and gets signed SETs. */
describe('shared signals transmitter', () => {
  const transmitter = aTransmitter();
  let t: TestApp;
  let push: PushReceiver;
  beforeAll(() => {
    ({ t, push } = transmitter);
  });

  const deactivate = (s: ScimTenant, id: string) =>
    s.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);
  const reactivate = (s: ScimTenant, id: string) =>
    s.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: true }] }).expect(200);

  /** The SETs pushed to `receiver` so far, verified. */
  const pushedTo = async (r: Receiver) => (await push.setsFor(t, r)).map((p) => p.claims);
  const pushStream = (r: Receiver, extra: Record<string, unknown> = {}) =>
    t
      .http()
      .post('/ssf/streams')
      .set(r.auth)
      .send({
        delivery: { method: PUSH, endpoint_url: push.url, authorization_header: `Bearer for-${r.client_id}` },
        events_requested: [ACCOUNT_DISABLED, ACCOUNT_ENABLED, SESSION_REVOKED],
        ...extra,
      })
      .expect(201);

  it('openid-ssf-transmitter-metadata: publishes the SSF 1.0 configuration and the JWKS its SETs verify with', async () => {
    const res = await t.http().get('/.well-known/ssf-configuration').expect(200);
    const base = t.baseUrl;
    expect(res.body).toMatchObject({
      spec_version: '1_0',
      issuer: base,
      jwks_uri: `${base}/oauth/jwks`,
      delivery_methods_supported: expect.arrayContaining([PUSH, POLL]),
      configuration_endpoint: `${base}/ssf/streams`,
      status_endpoint: `${base}/ssf/status`,
      add_subject_endpoint: `${base}/ssf/subjects/add`,
      remove_subject_endpoint: `${base}/ssf/subjects/remove`,
      verification_endpoint: `${base}/ssf/verify`,
      authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
    });
    const jwks = await t.http().get('/oauth/jwks').expect(200);
    expect(jwks.body.keys.some((k: { alg?: string; kty: string }) => k.kty === 'RSA')).toBe(true);
  });

  it('registers a receiver whose secret is shown once and buys a token of scope ssf, and nothing else', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const r = await aReceiver(t, dev, ws);
    expect(r.client_id).toMatch(/^ssfr_/);
    const listed = await t.http().get('/developer/ssf/receivers/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    expect(listed.body.results).toEqual([expect.objectContaining({ id: r.id, client_id: r.client_id, stream: null })]);
    expect(JSON.stringify(listed.body)).not.toContain(r.client_secret);
    const stored = await t.dataSource.query(`SELECT secret_hash FROM ssf_receivers WHERE id = $1`, [r.id]);
    expect(stored[0].secret_hash).not.toContain(r.client_secret);

    const wrong = await t
      .http()
      .post('/oauth/token')
      .auth(r.client_id, 'not-the-secret')
      .type('form')
      .send({ grant_type: 'client_credentials', scope: 'ssf' });
    expect(wrong.status).toBe(401);
    const scim = await t
      .http()
      .post('/oauth/token')
      .auth(r.client_id, r.client_secret)
      .type('form')
      .send({ grant_type: 'client_credentials', scope: 'scim' });
    expect(scim.body.error).toBe('invalid_scope');
    // The receiver's token opens the stream endpoints, not SCIM; a developer token does not open them.
    await t.http().get('/scim/v2/Users').set(r.auth).expect(401);
    await t.http().get('/ssf/streams').set(dev.auth).expect(401);
    await t.http().get('/ssf/streams').set(r.auth).expect(200, []);
    const audit = await t.dataSource.query(
      `SELECT event_type FROM audit_events WHERE workspace_id = $1 AND event_type = 'ssf_receiver_create'`,
      [ws.id],
    );
    expect(audit).toHaveLength(1);
  });

  it('pushes a signed account-disabled and session-revoked for a subject of the stream on a SCIM deactivation, and nothing for others', async () => {
    const s = await aScimTenant(t);
    const r = await aReceiver(t, s.dev, s.ws);
    const stream = (await pushStream(r)).body;
    expect(stream).toMatchObject({
      iss: t.baseUrl,
      aud: r.client_id,
      delivery: { method: PUSH, endpoint_url: push.url },
      events_delivered: [ACCOUNT_DISABLED, ACCOUNT_ENABLED, SESSION_REVOKED],
    });
    expect(stream.delivery.authorization_header).toBeUndefined();
    const ada = await aScimUser(s);
    const bob = await aScimUser(s);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(r.auth)
      .send({ stream_id: stream.stream_id, subject: { format: 'email', email: ada.userName } })
      .expect(200);

    await deactivate(s, bob.id);
    await deactivate(s, ada.id);
    const sets = await eventually(
      async () => {
        const got = await pushedTo(r);
        expect(got).toHaveLength(2);
        return got;
      },
      { timeoutMs: 20_000 },
    );
    const byType = Object.fromEntries(sets.map((c) => [Object.keys(c.events)[0], c]));
    expect(byType[ACCOUNT_DISABLED].sub_id).toEqual({ format: 'email', email: ada.userName });
    expect(byType[SESSION_REVOKED].sub_id).toEqual({ format: 'email', email: ada.userName });
    expect(byType[SESSION_REVOKED].events[SESSION_REVOKED].event_timestamp).toEqual(expect.any(Number));
    // One change, one transaction id.
    expect(byType[ACCOUNT_DISABLED].txn).toBe(byType[SESSION_REVOKED].txn);
    const mine = push.received.filter((p) => p.headers.authorization === `Bearer for-${r.client_id}`);
    expect(mine).toHaveLength(2);
    expect(mine[0].headers['content-type']).toBe('application/secevent+jwt');

    await reactivate(s, ada.id);
    await eventually(async () => expect((await pushedTo(r)).map((c) => Object.keys(c.events)[0])).toContain(ACCOUNT_ENABLED), {
      timeoutMs: 20_000,
    });
    await consistently(async () => expect(await pushedTo(r)).toHaveLength(3), { forMs: 1000 });
  });

  it('retries a push the receiver did not accept, with the same SET, until it does (at least once)', async () => {
    const s = await aScimTenant(t);
    const r = await aReceiver(t, s.dev, s.ws);
    const stream = (await pushStream(r, { events_requested: [ACCOUNT_DISABLED] })).body;
    const ada = await aScimUser(s);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(r.auth)
      .send({ stream_id: stream.stream_id, subject: { format: 'opaque', id: ada.id } })
      .expect(200);
    push.failNext.push(503, 500);
    await deactivate(s, ada.id);
    const [set] = await eventually(
      async () => {
        const got = await pushedTo(r);
        expect(got).toHaveLength(1);
        return got;
      },
      { timeoutMs: 30_000 },
    );
    expect(set.sub_id).toEqual({ format: 'opaque', id: ada.id });
    const [row] = await t.dataSource.query(`SELECT status, attempts FROM ssf_sets WHERE jti = $1`, [set.jti]);
    expect(row).toEqual({ status: 'delivered', attempts: 3 });
  }, 60_000);

  it('delivers by poll: pending SETs oldest first until acknowledged (RFC 8936)', async () => {
    const s = await aScimTenant(t);
    const r = await aReceiver(t, s.dev, s.ws);
    const stream = (
      await t
        .http()
        .post('/ssf/streams')
        .set(r.auth)
        .send({ delivery: { method: POLL }, events_requested: [ACCOUNT_DISABLED, ACCOUNT_ENABLED] })
        .expect(201)
    ).body;
    expect(stream.delivery).toEqual({ method: POLL, endpoint_url: `${t.baseUrl}/ssf/poll/${stream.stream_id}` });
    const ada = await aScimUser(s);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(r.auth)
      .send({ stream_id: stream.stream_id, subject: { format: 'iss_sub', iss: t.baseUrl, sub: ada.id } })
      .expect(200);
    await deactivate(s, ada.id);
    await reactivate(s, ada.id);
    const pollPath = new URL(stream.delivery.endpoint_url).pathname;
    const first = await eventually(
      async () => {
        const res = await t.http().post(pollPath).set(r.auth).send({ returnImmediately: true }).expect(200);
        expect(Object.keys(res.body.sets)).toHaveLength(2);
        return res.body as { sets: Record<string, string>; moreAvailable: boolean };
      },
      { timeoutMs: 20_000 },
    );
    const claims = await Promise.all(Object.values(first.sets).map((token) => verifySet(t, token, r.client_id)));
    expect(claims.map((c) => Object.keys(c.events)[0])).toEqual([ACCOUNT_DISABLED, ACCOUNT_ENABLED]);
    expect(claims[0].sub_id).toEqual({ format: 'iss_sub', iss: t.baseUrl, sub: ada.id });
    for (const [jti, c] of Object.entries(first.sets)) expect((await verifySet(t, c, r.client_id)).jti).toBe(jti);

    // Not acknowledged: they come again. Acknowledged: gone.
    const again = await t.http().post(pollPath).set(r.auth).send({ returnImmediately: true, maxEvents: 1 }).expect(200);
    expect(Object.keys(again.body.sets)).toEqual([Object.keys(first.sets)[0]]);
    expect(again.body.moreAvailable).toBe(true);
    const acked = await t
      .http()
      .post(pollPath)
      .set(r.auth)
      .send({ ack: Object.keys(first.sets), returnImmediately: true })
      .expect(200);
    expect(acked.body).toEqual({ sets: {}, moreAvailable: false });
  });

  it('keeps tenants apart: another receiver, developer or workspace reaches nothing of a stream', async () => {
    const a = await aScimTenant(t);
    const b = await aScimTenant(t);
    const ra = await aReceiver(t, a.dev, a.ws);
    const rb = await aReceiver(t, b.dev, b.ws);
    const streamA = (await pushStream(ra, { events_requested: [ACCOUNT_DISABLED] })).body;
    const id = streamA.stream_id as string;
    await t.http().get('/ssf/streams').query({ stream_id: id }).set(rb.auth).expect(404);
    await t.http().get('/ssf/status').query({ stream_id: id }).set(rb.auth).expect(404);
    await t.http().post('/ssf/status').set(rb.auth).send({ stream_id: id, status: 'paused' }).expect(404);
    await t.http().patch('/ssf/streams').set(rb.auth).send({ stream_id: id, description: 'mine now' }).expect(404);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(rb.auth)
      .send({ stream_id: id, subject: { format: 'email', email: 'x@example.com' } })
      .expect(404);
    await t.http().post('/ssf/verify').set(rb.auth).send({ stream_id: id }).expect(404);
    await t.http().post(`/ssf/poll/${id}`).set(rb.auth).send({ returnImmediately: true }).expect(404);
    await t.http().delete('/ssf/streams').query({ stream_id: id }).set(rb.auth).expect(404);
    await t.http().get(`/developer/ssf/receivers/${ra.id}/`).set(b.dev.auth).expect(404);
    await t.http().delete(`/developer/ssf/receivers/${ra.id}/`).set(b.dev.auth).expect(404);
    await t.http().get('/developer/ssf/receivers/').query({ workspace_id: a.ws.id }).set(b.dev.auth).expect(404);
    await t.http().post('/developer/ssf/receivers/').set(b.dev.auth).send({ workspace_id: a.ws.id, name: 'x' }).expect(404);
    await t.http().get('/ssf/status').query({ stream_id: id }).set(ra.auth).expect(200, { stream_id: id, status: 'enabled' });

    // A person of workspace B with the same email as A's subject is not A's subject.
    const adaA = await aScimUser(a);
    await t
      .http()
      .post('/ssf/subjects/add')
      .set(ra.auth)
      .send({ stream_id: id, subject: { format: 'email', email: adaA.userName } })
      .expect(200);
    await a.delete(`/Users/${adaA.id}`).expect(204);
    const adaB = await aScimUser(b, adaA.userName);
    await deactivate(b, adaB.id);
    await eventually(async () => expect(await pushedTo(ra)).toHaveLength(1), { timeoutMs: 20_000 });
    await consistently(async () => expect(await pushedTo(ra)).toHaveLength(1), { forMs: 1000 });

    // Deleting the receiver ends its stream and its token.
    await t.http().delete(`/developer/ssf/receivers/${ra.id}/`).set(a.dev.auth).expect(204);
    await t.http().get('/ssf/streams').set(ra.auth).expect(401);
  });
});
