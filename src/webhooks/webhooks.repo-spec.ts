import { aWorkspaceRow, itKeepsTheTenantContract, judgedByTable, repositoriesForSuite } from '../../test/support/repository';
import { WebhooksRepository } from './webhooks.repository';

const endpoint = (url = 'https://hooks.example.test/in') => ({
  url,
  eventTypes: ['scim_user_create'],
  description: 'repo-spec',
  secretEncrypted: 'sealed:not-a-real-secret',
  position: 0,
  directoryPosition: 0,
});

describe('WebhooksRepository', () => {
  let webhooks: WebhooksRepository;
  const db = repositoriesForSuite([WebhooksRepository], (booted) => (webhooks = booted));

  const anEndpoint = (workspaceId: string) => db.dataSource.transaction((tx) => webhooks.insert(tx, workspaceId, endpoint()));
  const table = judgedByTable(db, 'webhook_subscriptions', 'url');

  itKeepsTheTenantContract('webhook endpoints', db, {
    create: async (workspaceId) => (await anEndpoint(workspaceId)).id,
    read: async (workspaceId, id) => (await webhooks.listForWorkspace(workspaceId)).find((s) => s.id === id),
    update: (workspaceId, id) =>
      table.sets(id, `https://hooks.example.test/${workspaceId}`, (tx, url) => webhooks.update(tx, workspaceId, id, { url })),
    delete: (workspaceId, id) => table.removes(id, (tx) => webhooks.delete(tx, workspaceId, id)),
  });

  it('marks an endpoint failing once, keeping the first time, and only in its own workspace', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const s = await anEndpoint(ws);
    const first = new Date('2026-11-26T10:00:00Z');
    expect(await db.dataSource.transaction((tx) => webhooks.markFailing(tx, ws, s.id, first))).toEqual(first);
    expect(await db.dataSource.transaction((tx) => webhooks.markFailing(tx, ws, s.id, new Date()))).toEqual(first);
    const later = new Date('2026-11-26T11:00:00Z');
    // Another workspace changes nothing and is told its own time back.
    expect(await db.dataSource.transaction((tx) => webhooks.markFailing(tx, other, s.id, later))).toEqual(later);
    expect((await webhooks.listForWorkspace(ws))[0].failingSince).toEqual(first);
  });

  it('inserts each delivery once per endpoint and event', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const s = await anEndpoint(ws);
    const eventId = '00000000-0000-4000-8000-000000000001';
    const delivery = { subscriptionId: s.id, workspaceId: ws, eventId, eventType: 'scim_user_create', payload: { n: 1 } };
    const ids = await db.dataSource.transaction((tx) => webhooks.insertDeliveries(tx, [delivery]));
    expect(ids).toEqual([expect.any(String)]);
    expect(await db.dataSource.transaction((tx) => webhooks.insertDeliveries(tx, [delivery]))).toEqual([]);
    expect((await webhooks.deliveries(ws, s.id, 10)).map((d) => d.id)).toEqual(ids);
  });

  it('puts the deliveries of one resource in line by seq: only the first pending one is first in line', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const s = await anEndpoint(ws);
    const [userA, userB] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
    const delivery = (n: number, resourceId: string) => ({
      subscriptionId: s.id,
      workspaceId: ws,
      eventId: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
      eventType: 'directory.user.updated',
      payload: { seq: n },
      resourceId,
      seq: n,
    });
    const ids = await db.dataSource.transaction((tx) =>
      webhooks.insertDeliveries(tx, [delivery(1, userA), delivery(2, userB), delivery(3, userA)]),
    );
    const first = await db.dataSource.transaction((tx) => webhooks.firstInLine(tx, s.id, ids));
    expect(first).toEqual([ids[0], ids[1]]);
    expect(await db.dataSource.transaction((tx) => webhooks.nextInLine(tx, s.id, userA))).toEqual({ id: ids[0], seq: 1 });
    await db.dataSource.transaction((tx) =>
      webhooks.recordAttempt(tx, ws, ids[0], { status: 'succeeded', responseCode: 204, error: null, nextAttemptAt: null }),
    );
    expect(await db.dataSource.transaction((tx) => webhooks.nextInLine(tx, s.id, userA))).toEqual({ id: ids[2], seq: 3 });
    expect(await db.dataSource.transaction((tx) => webhooks.firstInLine(tx, s.id, [ids[2]]))).toEqual([ids[2]]);
  });
});
