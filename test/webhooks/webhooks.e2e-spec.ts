import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';
import { WebhookReceiver } from './receiver';

const FAST = {
  AUDIT_SEAL_INTERVAL_MS: '50',
  WEBHOOK_DISPATCH_INTERVAL_MS: '50',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '400',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
};

interface Delivery {
  id: string;
  event_id: string | null;
  event_type: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

describe('webhooks (Standard Webhooks)', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  // One receiver per test: a late delivery of an earlier test's endpoint never lands in the next test's receiver.
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp(FAST);
    dev = await aDeveloper(t);
  });
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => receiver.stop());
  afterAll(() => t.close());

  const rename = (ws: TestWorkspace, name: string) =>
    t.http().patch(`/e/v1/developer/workspaces/${ws.id}/`).set(dev.auth).send({ name }).expect(200);
  const deliveries = async (webhookId: string): Promise<Delivery[]> =>
    (await t.http().get(`/developer/webhooks/${webhookId}/deliveries/`).set(dev.auth).expect(200)).body.results as Delivery[];
  async function subscribe(ws: TestWorkspace, eventTypes: string[] = ['workspace_update'], url = receiver.url) {
    const res = await t
      .http()
      .post('/developer/webhooks/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, url, event_types: eventTypes })
      .expect(201);
    receiver.secret = res.body.secret as string;
    receiver.previousSecrets = [];
    return res.body as { id: string; secret: string };
  }
  const auditTypes = async (ws: TestWorkspace) =>
    (
      (await t.http().get('/developer/audit/').query({ workspace_id: ws.id }).set(dev.auth).expect(200)).body.results as {
        event_type: string;
      }[]
    ).map((e) => e.event_type);

  it('creates, lists, reads, changes, rotates and deletes an endpoint; the secret is shown once; each change is audited', async () => {
    const ws = await aWorkspace(t, dev);
    const created = await t
      .http()
      .post('/developer/webhooks/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, url: receiver.url, event_types: ['scim_user_create', '*'], description: 'SIEM' })
      .expect(201);
    receiver.secret = created.body.secret as string;
    expect(created.body).toEqual({
      id: expect.any(String),
      workspace_id: ws.id,
      url: receiver.url,
      event_types: ['scim_user_create', '*'],
      description: 'SIEM',
      is_active: true,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as string;
    const listed = await t.http().get('/developer/webhooks/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    expect(listed.body.results).toEqual([expect.objectContaining({ id })]);
    expect(listed.body.results[0]).not.toHaveProperty('secret');
    const read = await t.http().get(`/developer/webhooks/${id}/`).set(dev.auth).expect(200);
    expect(read.body).not.toHaveProperty('secret');
    const patched = await t
      .http()
      .patch(`/developer/webhooks/${id}/`)
      .set(dev.auth)
      .send({ event_types: ['workspace_update'], is_active: false })
      .expect(200);
    expect(patched.body).toMatchObject({ event_types: ['workspace_update'], is_active: false });
    const rotated = await t.http().post(`/developer/webhooks/${id}/rotate-secret/`).set(dev.auth).expect(200);
    receiver.secret = rotated.body.secret as string;
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    await t.http().delete(`/developer/webhooks/${id}/`).set(dev.auth).expect(204);
    await t.http().get(`/developer/webhooks/${id}/`).set(dev.auth).expect(404);
    expect(await auditTypes(ws)).toEqual(
      expect.arrayContaining(['webhook_create', 'webhook_update', 'webhook_secret_rotate', 'webhook_delete']),
    );
  });

  it('refuses unknown event types, a missing URL and a URL that is not one, with the documented error', async () => {
    const ws = await aWorkspace(t, dev);
    const post = (body: Record<string, unknown>) =>
      t
        .http()
        .post('/developer/webhooks/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, ...body });
    expect((await post({ url: receiver.url, event_types: ['nope'] }).expect(400)).body).toMatchObject({ error: 'validation_failed' });
    await post({ url: receiver.url, event_types: [] }).expect(400);
    await post({ event_types: ['*'] }).expect(400);
    await post({ url: 'not a url', event_types: ['*'] }).expect(400);
    await post({ url: 'ftp://127.0.0.1/x', event_types: ['*'] }).expect(400);
  });

  it('delivers each subscribed audit event as {type, timestamp, data}, signed so that standardwebhooks verifies it', async () => {
    const ws = await aWorkspace(t, dev);
    const hook = await subscribe(ws);
    receiver.received.length = 0;
    for (const name of ['a', 'b', 'c']) await rename(ws, name);
    await eventually(() => expect(receiver.received.filter((r) => r.payload.data.workspace_id === ws.id)).toHaveLength(3));
    expect(receiver.rejected).toEqual([]);
    const audit = (await t.http().get('/developer/audit/').query({ workspace_id: ws.id, event_type: 'workspace_update' }).set(dev.auth))
      .body.results as Record<string, unknown>[];
    const mine = receiver.received.filter((r) => r.payload.data.workspace_id === ws.id);
    for (const event of audit) {
      const got = mine.find((r) => r.payload.data.id === event.id)!;
      expect(got.payload).toEqual({ type: 'workspace_update', timestamp: event.created_at, data: event });
    }
    await eventually(async () => {
      const list = await deliveries(hook.id);
      expect(list).toHaveLength(3);
      for (const d of list) expect(d).toMatchObject({ status: 'succeeded', attempts: 1, last_response_code: 204, next_attempt_at: null });
      expect(new Set(mine.map((r) => r.id))).toEqual(new Set(list.map((d) => d.id)));
    });
  });

  it('gets every event to a receiver that was down for a while, once it is back', async () => {
    const ws = await aWorkspace(t, dev);
    const hook = await subscribe(ws);
    await receiver.stop();
    receiver.received.length = 0;
    for (let i = 0; i < 5; i++) await rename(ws, `down-${i}`);
    await eventually(async () => {
      const list = await deliveries(hook.id);
      expect(list).toHaveLength(5);
      // While the endpoint fails, one delivery probes it and the others wait for that probe without
      // an attempt of their own (docs/audit.md), so not every delivery has an error yet.
      for (const d of list) expect(d.status).toBe('pending');
      expect(list.some((d) => d.attempts >= 2 && /ECONNREFUSED/.test(d.last_error ?? ''))).toBe(true);
    });
    await receiver.start();
    const expected = (
      (await t.http().get('/developer/audit/').query({ workspace_id: ws.id, event_type: 'workspace_update' }).set(dev.auth)).body
        .results as { id: string }[]
    ).map((e) => e.id);
    await eventually(() => expect(new Set(receiver.eventIds())).toEqual(new Set(expected)), { timeoutMs: 15_000 });
    await eventually(async () => {
      for (const d of await deliveries(hook.id)) expect(d.status).toBe('succeeded');
    });
  });

  it('sends a test message, retries a delivery with the same webhook-id, and signs with the rotated secret', async () => {
    const ws = await aWorkspace(t, dev);
    const hook = await subscribe(ws, ['*']);
    receiver.received.length = 0;
    const test = await t.http().post(`/developer/webhooks/${hook.id}/test/`).set(dev.auth).expect(202);
    expect(test.body).toMatchObject({ id: expect.any(String), event_id: null, event_type: 'webhook_test', status: 'pending' });
    await eventually(() => expect(receiver.received.map((r) => r.id)).toContain(test.body.id));
    expect(receiver.received.find((r) => r.id === test.body.id)!.payload).toMatchObject({
      type: 'webhook_test',
      data: { webhook_id: hook.id },
    });

    const retried = await t.http().post(`/developer/webhook-deliveries/${test.body.id}/retry/`).set(dev.auth).expect(202);
    expect(retried.body).toMatchObject({ id: test.body.id, status: 'pending' });
    await eventually(() => expect(receiver.received.filter((r) => r.id === test.body.id)).toHaveLength(2));

    // Deliveries signed just before the rotation may still be in flight: the old secret stays accepted
    // for them, as a receiver rotating its secret would; what is signed after the rotation must use the new one.
    const rotated = await t.http().post(`/developer/webhooks/${hook.id}/rotate-secret/`).set(dev.auth).expect(200);
    receiver.previousSecrets = [receiver.secret];
    receiver.secret = rotated.body.secret as string;
    await rename(ws, 'after-rotation');
    await eventually(() => expect(receiver.received.some((r) => r.payload.type === 'workspace_update')).toBe(true));
    expect(receiver.received.find((r) => r.payload.type === 'workspace_update')!.verifiedWith).toBe('current');
    expect(receiver.rejected).toEqual([]);
  });

  it('follows no redirect: a 302 is a failed attempt and the redirect target is never called', async () => {
    const ws = await aWorkspace(t, dev);
    const target = await new WebhookReceiver().start();
    try {
      const hook = await subscribe(ws);
      receiver.status = 'redirect';
      receiver.redirectTo = target.url;
      await rename(ws, 'redirected');
      await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'pending', last_response_code: 302 }));
      expect(target.received).toEqual([]);
      expect(target.rejected).toEqual([]);
    } finally {
      receiver.status = 204;
      await target.stop();
    }
  });

  it("answers 404 to another workspace's developer on every endpoint that takes an id", async () => {
    const ws = await aWorkspace(t, dev);
    const hook = await subscribe(ws, ['*']);
    const test = await t.http().post(`/developer/webhooks/${hook.id}/test/`).set(dev.auth).expect(202);
    const other = await aDeveloper(t);
    const base = `/developer/webhooks/${hook.id}/`;
    await t.http().get(base).set(other.auth).expect(404);
    await t.http().patch(base).set(other.auth).send({ description: 'x' }).expect(404);
    await t.http().post(`${base}rotate-secret/`).set(other.auth).expect(404);
    await t.http().post(`${base}test/`).set(other.auth).expect(404);
    await t.http().get(`${base}deliveries/`).set(other.auth).expect(404);
    await t.http().post(`/developer/webhook-deliveries/${test.body.id}/retry/`).set(other.auth).expect(404);
    await t.http().delete(base).set(other.auth).expect(404);
    await t.http().get('/developer/webhooks/').query({ workspace_id: ws.id }).set(other.auth).expect(404);
    await t
      .http()
      .post('/developer/webhooks/')
      .set(other.auth)
      .send({ workspace_id: ws.id, url: receiver.url, event_types: ['*'] })
      .expect(404);
    await t.http().get(base).set(dev.auth).expect(200);
    await t.http().get('/developer/webhooks/not-a-uuid/').set(dev.auth).expect(404);
  });
});

describe('webhooks: an endpoint failing for the whole retry window', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  beforeAll(async () => {
    t = await createTestApp({ ...FAST, WEBHOOK_RETRY_WINDOW_MS: '1500' });
    dev = await aDeveloper(t);
  });
  afterAll(() => t.close());

  it('is disabled, and that is audited; its deliveries end failed', async () => {
    const ws = await aWorkspace(t, dev);
    const dead = await new WebhookReceiver().start();
    const url = dead.url;
    await dead.stop();
    const hook = (
      await t
        .http()
        .post('/developer/webhooks/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, url, event_types: ['workspace_update'] })
        .expect(201)
    ).body as { id: string };
    await t.http().patch(`/e/v1/developer/workspaces/${ws.id}/`).set(dev.auth).send({ name: 'nobody listens' }).expect(200);
    await eventually(
      async () => {
        const read = await t.http().get(`/developer/webhooks/${hook.id}/`).set(dev.auth).expect(200);
        expect(read.body).toMatchObject({ is_active: false, disabled_reason: expect.stringMatching(/^failing since/) });
      },
      { timeoutMs: 15_000 },
    );
    await eventually(async () => {
      const events = (await t.http().get('/developer/audit/').query({ workspace_id: ws.id, event_type: 'webhook_disable' }).set(dev.auth))
        .body.results as Record<string, unknown>[];
      expect(events).toEqual([expect.objectContaining({ actor_type: 'system', target_id: hook.id, severity: 'warn' })]);
    });
    await eventually(async () => {
      const list = (await t.http().get(`/developer/webhooks/${hook.id}/deliveries/`).set(dev.auth)).body.results as Delivery[];
      expect(list.filter((d) => d.event_type === 'workspace_update')).toEqual([expect.objectContaining({ status: 'failed' })]);
    });
  });
});
