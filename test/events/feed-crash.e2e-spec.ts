import request from 'supertest';
import { SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { CrashScenario, scimTenantAt } from '../support/crash';
import { eventually } from '../support/eventually';
import { aUserName, userBody } from '../scim/scim-support';
import { FeedEvent } from './feed-support';

const WRITERS = 50;

/**
 * The outbox across kill -9 (issue 37): SCIM writers run against a separately started instance
 * that is killed with SIGKILL in the middle; every create it acknowledged (201) is in the feed
 * another instance serves, numbered without gap or repeat.
 */
describe('the directory event feed across a kill -9', () => {
  const crash = new CrashScenario('feed-crash');
  afterAll(() => crash.close(), SPAWN_HOOK_TIMEOUT_MS);

  it(
    'loses no acknowledged change',
    async () => {
      const crashed = await crash.start();
      const { tenant, scim } = await scimTenantAt(crashed.baseUrl);

      const acknowledged: string[] = [];
      let killed = false;
      const writer = async () => {
        while (!killed) {
          try {
            const res = await request(crashed.baseUrl)
              .post('/scim/v2/Users')
              .set(scim)
              .send(JSON.stringify(userBody(aUserName('k'))));
            if (res.status === 201) acknowledged.push(res.body.id as string);
          } catch {
            // The connection died with the process: not acknowledged.
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await eventually(() => expect(acknowledged.length).toBeGreaterThanOrEqual(150), { timeoutMs: 120_000 });
      await crash.kill();
      killed = true;
      await Promise.all(writers);

      const survivor = await crash.takeOver();
      const readAll = async () => {
        const events: FeedEvent[] = [];
        for (let after = 0; ;) {
          const res = await survivor
            .http()
            .get('/developer/events/')
            .query({ workspace_id: tenant.workspaceId, after, limit: 1000 })
            .set(tenant.auth)
            .expect(200);
          events.push(...(res.body.results as FeedEvent[]));
          after = res.body.next_after as number;
          if (res.body.results.length < 1000) return events;
        }
      };
      const events = await eventually(async () => {
        const all = await readAll();
        const created = new Set(all.filter((e) => e.type === 'directory.user.created').map((e) => e.data.id));
        expect(acknowledged.filter((id) => !created.has(id))).toEqual([]);
        return all;
      });
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
      // Nothing the service did not write either: every event is of a user that exists.
      for (const e of events) {
        await survivor
          .http()
          .get(`/scim/v2/Users/${String(e.data.id)}`)
          .set(scim)
          .expect(200);
      }
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );
});
