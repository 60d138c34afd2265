import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aScimTenant, aScimUser, PATCH_OP, ScimTenant } from '../scim/scim-support';
import { FeedEvent, readFeed } from '../events/feed-support';
import { ReceivedWebhook, WebhookReceiver } from './receiver';

const FAST = {
  AUDIT_SEAL_INTERVAL_MS: '50',
  DIRECTORY_EVENTS_SEAL_INTERVAL_MS: '50',
  WEBHOOK_DISPATCH_INTERVAL_MS: '50',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '400',
  WEBHOOK_TIMEOUT_MS: '5000',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  JOBS_CONCURRENCY: '4',
};

const USER_TYPES = ['directory.user.created', 'directory.user.updated', 'directory.user.deactivated', 'directory.user.reactivated'];

interface Delivery {
  id: string;
  event_id: string | null;
  event_type: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
}

/** The feed seqs of the directory events received, per resource (user or group id), in arrival order. */
function seqsByResource(received: ReceivedWebhook[]): Map<string, number[]> {
  const byResource = new Map<string, number[]>();
  for (const r of received) {
    const data = r.payload.data as { id?: string; group?: { id: string } };
    const resource = data.group?.id ?? String(data.id);
    byResource.set(resource, [...(byResource.get(resource) ?? []), r.payload.seq!]);
  }
  return byResource;
}

/** Directory event types on webhooks (decisions 0540, 0541): the feed's event object, signed, in order per resource. */
describe('directory events on webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp(FAST);
  });
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => receiver.stop());
  afterAll(() => t.close());

  async function subscribe(s: ScimTenant, eventTypes: string[]) {
    const res = await t
      .http()
      .post('/developer/webhooks/')
      .set(s.dev.auth)
      .send({ workspace_id: s.ws.id, url: receiver.url, event_types: eventTypes })
      .expect(201);
    receiver.secret = res.body.secret as string;
    return res.body as { id: string };
  }
  const deliveries = async (s: ScimTenant, webhookId: string): Promise<Delivery[]> =>
    (await t.http().get(`/developer/webhooks/${webhookId}/deliveries/`).query({ limit: 100 }).set(s.dev.auth).expect(200)).body
      .results as Delivery[];
  const feed = async (s: ScimTenant): Promise<FeedEvent[]> => (await readFeed(t, s.dev, s.ws.id)).events;
  const rename = (s: ScimTenant, userId: string, familyName: string) =>
    s.patch(`/Users/${userId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.familyName', value: familyName }] });

  it('refuses an unknown directory type with the documented error, and accepts the catalogue', async () => {
    const s = await aScimTenant(t);
    const post = (eventTypes: string[]) =>
      t.http().post('/developer/webhooks/').set(s.dev.auth).send({ workspace_id: s.ws.id, url: receiver.url, event_types: eventTypes });
    const refused = await post(['directory.user.created', 'directory.user.exploded']).expect(400);
    expect(refused.body).toMatchObject({ error: 'validation_failed', details: { event_types: expect.any(Array) } });
    expect(JSON.stringify(refused.body)).not.toMatch(/at .*\.ts:\d+/);
    const hook = await post(['directory.group.user_added', 'directory.user.deactivated', 'scim_user_create']).expect(201);
    expect(hook.body.event_types).toEqual(['directory.group.user_added', 'directory.user.deactivated', 'scim_user_create']);
    await t
      .http()
      .patch(`/developer/webhooks/${hook.body.id}/`)
      .set(s.dev.auth)
      .send({ event_types: ['directory.nope'] })
      .expect(400);
  });

  it('delivers the feed event object, signed as Standard Webhooks, only for the types subscribed; "*" stays audit-only', async () => {
    const s = await aScimTenant(t);
    const hook = await subscribe(s, ['directory.user.created', 'directory.user.deactivated', '*']);
    const user = await aScimUser(s);
    await rename(s, user.id, 'Renamed').expect(200);
    await s.patch(`/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);

    const events = await eventually(async () => {
      const all = await feed(s);
      expect(all.map((e) => e.type)).toEqual(['directory.user.created', 'directory.user.updated', 'directory.user.deactivated']);
      return all;
    });
    const directory = () => receiver.received.filter((r) => r.payload.type.startsWith('directory.'));
    await eventually(() => expect(directory()).toHaveLength(2), { timeoutMs: 20_000 });
    // Exactly the feed's objects, in order; the update was not subscribed to.
    expect(directory().map((r) => r.payload)).toEqual([events[0], events[2]]);
    expect(receiver.rejected).toEqual([]);
    // "*" still brought the audit rows (their own body shape).
    await eventually(() =>
      expect(receiver.received.map((r) => r.payload.type)).toEqual(expect.arrayContaining(['scim_user_create', 'scim_user_update'])),
    );
    const listed = await deliveries(s, hook.id);
    const created = listed.find((d) => d.event_type === 'directory.user.created')!;
    expect(created).toMatchObject({ event_id: events[0].id, status: 'succeeded' });
    expect(directory()[0].id).toBe(created.id);
  });

  it('retries after a 500, and holds a later event of the same user back until the earlier one is acknowledged', async () => {
    const s = await aScimTenant(t);
    const hook = await subscribe(s, USER_TYPES);
    receiver.status = 500;
    const user = await aScimUser(s);
    const other = await aScimUser(s);
    await eventually(async () => {
      const failing = (await deliveries(s, hook.id)).filter((d) => d.last_response_code === 500);
      expect(failing.length).toBeGreaterThanOrEqual(1);
      expect(failing.some((d) => d.attempts >= 2)).toBe(true);
    });
    await rename(s, user.id, 'Second').expect(200);
    await rename(s, user.id, 'Third').expect(200);
    await eventually(async () => expect((await feed(s)).length).toBe(4));
    // Give the fan-out and a few retries time to happen: the later events of `user` must not be tried meanwhile.
    await eventually(async () => {
      const pending = (await deliveries(s, hook.id)).filter((d) => d.status === 'pending');
      expect(pending).toHaveLength(4);
      expect(receiver.received.filter((r) => r.payload.data.id === user.id && r.payload.seq === 1).length).toBeGreaterThanOrEqual(4);
    });
    expect(receiver.received.filter((r) => r.payload.data.id === user.id).map((r) => r.payload.type)).not.toContain(
      'directory.user.updated',
    );

    receiver.status = 204;
    await eventually(
      async () => {
        const all = await deliveries(s, hook.id);
        expect(all.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
      },
      { timeoutMs: 20_000 },
    );
    const seqs = seqsByResource(receiver.received);
    const userSeqs = seqs.get(user.id)!;
    // Every attempt of seq 1 (the 500s and the 204) came before seq 3, which came before seq 4.
    expect([...new Set(userSeqs)]).toEqual([1, 3, 4]);
    expect(userSeqs.lastIndexOf(1)).toBeLessThan(userSeqs.indexOf(3));
    expect(seqs.get(other.id)).toEqual(expect.arrayContaining([2]));
  });

  it('keeps each user and group in order under concurrent SCIM writes and a slow, sometimes failing receiver', async () => {
    const s = await aScimTenant(t);
    const hook = await subscribe(s, [
      ...USER_TYPES,
      'directory.group.created',
      'directory.group.user_added',
      'directory.group.user_removed',
    ]);
    const attempts = new Map<string, number>();
    receiver.respond = async (r) => {
      // A random answer time lets the four job lanes finish out of order; every third event fails its first attempt.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      const n = (attempts.get(r.id) ?? 0) + 1;
      attempts.set(r.id, n);
      return n === 1 && r.payload.seq! % 3 === 0 ? 500 : 204;
    };
    const users = await Promise.all(Array.from({ length: 6 }, () => aScimUser(s)));
    const group = (
      await s.post('/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `g-${users[0].id.slice(0, 6)}` })
    ).body as { id: string };
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < 5; round++) {
      for (const u of users) {
        writes.push(rename(s, u.id, `R${round}`).expect(200));
        const op = round % 2 === 0 ? 'add' : 'remove';
        writes.push(
          s
            .patch(`/Groups/${group.id}`, {
              schemas: [PATCH_OP],
              Operations: [op === 'add' ? { op, path: 'members', value: [{ value: u.id }] } : { op, path: `members[value eq "${u.id}"]` }],
            })
            .then((res) => expect([200, 204]).toContain(res.status)),
        );
      }
    }
    await Promise.all(writes);
    const events = await eventually(async () => {
      const all = await feed(s);
      expect(all.length).toBeGreaterThan(0);
      return all;
    });
    await eventually(
      async () => {
        const all = await feed(s);
        const delivered = new Set(receiver.received.filter((r) => attempts.get(r.id) !== undefined).map((r) => r.payload.seq));
        expect(all.filter((e) => !delivered.has(e.seq)).map((e) => e.seq)).toEqual([]);
      },
      { timeoutMs: 60_000 },
    );
    expect(events.length).toBeGreaterThan(30);
    // A first attempt answered 500 counts as received above; its retry may still be on its way.
    await eventually(async () => expect((await deliveries(s, hook.id)).filter((d) => d.status !== 'succeeded')).toEqual([]), {
      timeoutMs: 60_000,
    });
    // Per resource, the seqs arrive in increasing order; a retried one is repeated before the next, never after.
    for (const [resource, seqs] of seqsByResource(receiver.received)) {
      const distinct = seqs.filter((seq, i) => i === 0 || seq !== seqs[i - 1]);
      expect({ resource, seqs: distinct }).toEqual({ resource, seqs: [...distinct].sort((a, b) => a - b) });
      expect(new Set(distinct).size).toBe(distinct.length);
    }
    expect(receiver.rejected).toEqual([]);
  }, 120_000);
});
