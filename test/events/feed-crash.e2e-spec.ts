import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { generateAuditSigningKey } from '../../src/config/dev-secrets';
import { createTestApp, TestApp } from '../support/app';
import { AppProcess, spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { eventually } from '../support/eventually';
import { setUpTenantAt } from '../support/remote-tenant';
import { aUserName, SCIM_JSON, userBody } from '../scim/scim-support';
import { FeedEvent } from './feed-support';

const WRITERS = 50;

/**
 * The outbox across kill -9 (issue 37): SCIM writers run against a separately started instance
 * that is killed with SIGKILL in the middle; every create it acknowledged (201) is in the feed
 * another instance serves, numbered without gap or repeat.
 */
describe('the directory event feed across a kill -9', () => {
  let crashed: AppProcess | undefined;
  let survivor: TestApp | undefined;
  afterAll(async () => {
    await crashed?.stop('SIGKILL');
    await survivor?.close();
  }, SPAWN_HOOK_TIMEOUT_MS);

  it(
    'loses no acknowledged change',
    async () => {
      const env = {
        AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
        SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
        AUDIT_SIGNING_KEYS: generateAuditSigningKey('feed-crash'),
      };
      crashed = await spawnApp({ ...env, LOG_LEVEL: 'warn' });
      const tenant = await setUpTenantAt(crashed.baseUrl);
      const minted = await request(crashed.baseUrl)
        .post('/developer/scim/tokens/')
        .set(tenant.auth)
        .send({ workspace_id: tenant.workspaceId, label: 'idp' })
        .expect(201);
      const scim = { Authorization: `Bearer ${minted.body.token}`, 'Content-Type': SCIM_JSON };

      const acknowledged: string[] = [];
      let killed = false;
      const writer = async () => {
        while (!killed) {
          try {
            const res = await request(crashed!.baseUrl)
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
      await crashed.stop('SIGKILL');
      killed = true;
      await Promise.all(writers);

      survivor = await createTestApp(env);
      const readAll = async () => {
        const events: FeedEvent[] = [];
        for (let after = 0; ;) {
          const res = await survivor!
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
