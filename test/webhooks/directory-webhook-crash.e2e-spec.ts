import request from 'supertest';
import { SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { CrashScenario, scimTenantAt } from '../support/crash';
import { eventually } from '../support/eventually';
import { aUserName, PATCH_OP, userBody } from '../scim/scim-support';
import { FeedEvent } from '../events/feed-support';
import { WebhookReceiver } from './receiver';

const USER_TYPES = ['directory.user.created', 'directory.user.updated', 'directory.user.deactivated', 'directory.user.reactivated'];

/**
 * Directory deliveries across a kill -9 (decisions 0540, 0541): events whose deliveries were
 * pending (the receiver down), waiting in line behind them, or not yet fanned out when the
 * service died all reach the receiver from the instance that takes over, each user's in order.
 */
describe('directory webhooks across a kill -9', () => {
  const crash = new CrashScenario('directory-crash', {
    JOBS_LEASE_MS: '2000',
    DIRECTORY_EVENTS_SEAL_INTERVAL_MS: '50',
    WEBHOOK_DISPATCH_INTERVAL_MS: '50',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const receiver = new WebhookReceiver();

  afterAll(async () => {
    await crash.close();
    await receiver.stop();
  }, SPAWN_HOOK_TIMEOUT_MS);

  it(
    'loses no delivery and keeps each user in order',
    async () => {
      await receiver.start();
      await receiver.stop(); // the port is reserved for later; nobody listens now

      const crashed = await crash.start();
      const http = () => request(crashed.baseUrl);
      const { tenant, scim } = await scimTenantAt(crashed.baseUrl);
      const hook = await http()
        .post('/developer/webhooks/')
        .set(tenant.auth)
        .send({ workspace_id: tenant.workspaceId, url: receiver.url, event_types: USER_TYPES })
        .expect(201);
      receiver.secret = hook.body.secret as string;
      const create = async () =>
        (
          await http()
            .post('/scim/v2/Users')
            .set(scim)
            .send(JSON.stringify(userBody(aUserName('crash'))))
            .expect(201)
        ).body.id as string;
      const rename = (id: string, familyName: string) =>
        http()
          .patch(`/scim/v2/Users/${id}`)
          .set(scim)
          .send(JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.familyName', value: familyName }] }))
          .expect(200);

      const users = [await create(), await create(), await create()];
      for (const round of [1, 2]) await Promise.all(users.map((id) => rename(id, `R${round}`)));
      await eventually(async () => {
        const deliveries = (await http().get(`/developer/webhooks/${hook.body.id}/deliveries/`).set(tenant.auth).expect(200)).body.results;
        expect(deliveries).toHaveLength(9);
        // The receiver is down: the first delivery of some user has been tried and failed; the rest wait.
        expect(deliveries.some((d: { attempts: number; last_error: string | null }) => d.attempts >= 1 && d.last_error !== null)).toBe(
          true,
        );
      });
      // And a few the killed instance may not even have numbered or fanned out.
      await Promise.all(users.map((id) => rename(id, 'Last')));
      await crash.kill();

      await receiver.start();
      const survivor = await crash.takeOver();
      const feed = (
        await survivor
          .http()
          .get('/developer/events/')
          .query({ workspace_id: tenant.workspaceId, limit: 1000 })
          .set({ Authorization: tenant.auth.Authorization })
          .expect(200)
      ).body.results as FeedEvent[];
      expect(feed).toHaveLength(12);
      await eventually(() => expect(new Set(receiver.received.map((r) => r.payload.id))).toEqual(new Set(feed.map((e) => e.id))), {
        timeoutMs: 60_000,
      });
      expect(receiver.rejected).toEqual([]);
      for (const user of users) {
        // In order of first arrival; a repeat (a send whose success was not recorded) carries the same webhook-id.
        const seqs = receiver.received.filter((r) => r.payload.data.id === user).map((r) => r.payload.seq!);
        const firsts = seqs.filter((seq, i) => seqs.indexOf(seq) === i);
        expect(firsts).toEqual(feed.filter((e) => e.data.id === user).map((e) => e.seq));
      }
      const idsByEvent = new Map<string, Set<string>>();
      for (const r of receiver.received) idsByEvent.set(r.payload.id!, (idsByEvent.get(r.payload.id!) ?? new Set()).add(r.id));
      for (const ids of idsByEvent.values()) expect(ids.size).toBe(1);
    },
    SPAWN_HOOK_TIMEOUT_MS + 120_000,
  );
});
