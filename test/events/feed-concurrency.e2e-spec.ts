import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aScimGroup, aScimTenant, aUserName, PATCH_OP, userBody } from '../scim/scim-support';
import { FeedEvent } from './feed-support';

const WRITERS = 50;

/**
 * The feed cannot skip (issue 37): 50 SCIM writers at once while a consumer reads the feed the
 * whole time from its own position; the consumer sees every event exactly once, in seq order,
 * and each user's events in the order of its changes.
 */
describe('the directory event feed under concurrent writers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('hands a consumer reading during 50 concurrent writers every event once, in order', async () => {
    const s = await aScimTenant(t);
    const shared = await aScimGroup(s, 'everyone');
    const seen: FeedEvent[] = [];
    let position = 0;
    let writing = true;
    const readOnce = async () => {
      const res = await t
        .http()
        .get('/developer/events/')
        .query({ workspace_id: s.ws.id, after: position, limit: 50 })
        .set(s.dev.auth)
        .expect(200);
      seen.push(...(res.body.results as FeedEvent[]));
      position = res.body.next_after as number;
    };
    const consumer = (async () => {
      while (writing) await readOnce();
    })();

    const writer = async () => {
      const user = (await s.post('/Users', userBody(aUserName('w'))).expect(201)).body;
      await s
        .patch(`/Groups/${shared.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: user.id }] }] })
        .expect(204);
      await s
        .patch(`/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.familyName', value: 'Second' }] })
        .expect(200);
      await s.delete(`/Users/${user.id}`).expect(204);
      return user.id as string;
    };
    const userIds = await Promise.all(Array.from({ length: WRITERS }, writer));
    // group.created, then per writer: created, user_added, updated, deactivated, user_removed.
    const expected = 1 + WRITERS * 5;
    await eventually(() => expect(seen.length).toBeGreaterThanOrEqual(expected), { timeoutMs: 30_000 });
    writing = false;
    await consumer;

    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
    expect(new Set(seen.map((e) => e.id)).size).toBe(expected);
    for (const id of userIds) {
      const ofUser = seen.filter((e) => e.data.id === id || e.data.user?.id === id).map((e) => e.type);
      expect(ofUser).toEqual([
        'directory.user.created',
        'directory.group.user_added',
        'directory.user.updated',
        'directory.user.deactivated',
        'directory.group.user_removed',
      ]);
    }
  });
});
