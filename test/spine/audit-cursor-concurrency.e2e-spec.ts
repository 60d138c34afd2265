import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { DomainEventBus } from '../../src/events/domain-event-bus';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper } from '../support/factories';

interface Event {
  id: string;
  created_at: string;
  metadata: { writer: number; i: number };
}

/**
 * The audit cursor under writers that commit in another order than they stamped (decision 0120):
 * a client that follows the log (each pass pages newest first down to the newest row of its last
 * pass) sees every event exactly once, while no writer waits for another.
 */
describe('audit cursor under concurrent writers', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let bus: DomainEventBus;
  beforeAll(async () => {
    t = await createTestApp();
    dev = await aDeveloper(t);
    bus = t.get(DomainEventBus);
  });
  afterAll(() => t.close());

  /** One pass of a follower: every page newest first, down to (not including) `since`. */
  async function pass(workspaceId: string, since: string | undefined): Promise<{ events: Event[]; newest: string | undefined }> {
    const events: Event[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await t
        .http()
        .get('/developer/audit/')
        .query({
          workspace_id: workspaceId,
          event_type: 'scim_user_update',
          limit: 7,
          ...(since ? { from: since } : {}),
          ...(cursor ? { cursor } : {}),
        })
        .set(dev.auth)
        .expect(200);
      events.push(...(res.body.results as Event[]).filter((e) => e.created_at !== since));
      if (!res.body.next_cursor) break;
      cursor = res.body.next_cursor;
    }
    return { events, newest: events[0]?.created_at ?? since };
  }

  /** What a service's unit of work does before commit: the audit writer writes the event on `manager`'s transaction. */
  const record = (manager: EntityManager, workspaceId: string, writer: number, i: number) =>
    bus.runTransactionPhase(
      [{ name: 'scim_user_update', payload: { workspaceId, actor: { type: 'system', id: null }, metadata: { writer, i } } }],
      manager,
    );

  it('does not pass an event stamped before one that committed first', async () => {
    const ws = await aWorkspace(t, dev);
    const early = t.dataSource.createQueryRunner();
    await early.connect();
    try {
      await early.startTransaction();
      await record(early.manager, ws.id, 1, 0);
      await t.dataSource.transaction((m) => record(m, ws.id, 2, 0));
      // The later event has committed, the earlier one not yet: a cursor past the later one would skip it.
      const first = await pass(ws.id, undefined);
      expect(first.events).toEqual([]);
      await early.commitTransaction();
      const second = await pass(ws.id, first.newest);
      expect(second.events.map((e) => e.metadata.writer)).toEqual([2, 1]);
    } finally {
      if (early.isTransactionActive) await early.rollbackTransaction();
      await early.release();
    }
  });

  it('follows 8 writers that hold their transactions open for random times: every event once, in one order', async () => {
    const ws = await aWorkspace(t, dev);
    const seen: Event[] = [];
    let since: string | undefined;
    let writing = true;
    const follower = (async () => {
      while (writing) {
        const p = await pass(ws.id, since);
        seen.push(...p.events);
        since = p.newest;
      }
    })();
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        (async () => {
          for (let i = 0; i < 10; i++) {
            await t.dataSource.transaction(async (m) => {
              await record(m, ws.id, writer, i);
              await new Promise((resolve) => setTimeout(resolve, randomInt(0, 30)));
            });
          }
        })(),
      ),
    );
    writing = false;
    await follower;
    const last = await pass(ws.id, since);
    seen.push(...last.events);

    const keys = seen.map((e) => `${e.metadata.writer}/${e.metadata.i}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(80);
    // One total order: distinct created_at, which every pass returned newest first.
    expect(new Set(seen.map((e) => e.created_at)).size).toBe(80);
  });
});
