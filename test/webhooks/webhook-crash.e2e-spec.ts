import request from 'supertest';
import { CrashScenario } from '../support/crash';
import { eventually } from '../support/eventually';
import { setUpTenantAt } from '../support/remote-tenant';
import { WebhookReceiver } from './receiver';

/**
 * Durable, at-least-once: events whose deliveries were pending (receiver down) or not even
 * fanned out yet when the service was killed with SIGKILL all reach the receiver once it is back
 * and another instance runs.
 */
describe('webhooks across a kill -9', () => {
  const crash = new CrashScenario('crash-test', {
    JOBS_LEASE_MS: '2000',
    AUDIT_SEAL_INTERVAL_MS: '50',
    WEBHOOK_DISPATCH_INTERVAL_MS: '50',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const receiver = new WebhookReceiver();

  afterAll(async () => {
    await crash.close();
    await receiver.stop();
  });

  it('loses no delivery', async () => {
    await receiver.start();
    await receiver.stop(); // the port is reserved for later; nobody listens now

    const crashed = await crash.start();
    const http = () => request(crashed.baseUrl);
    const tenant = await setUpTenantAt(crashed.baseUrl);
    const hook = await http()
      .post('/developer/webhooks/')
      .set(tenant.auth)
      .send({ workspace_id: tenant.workspaceId, url: receiver.url, event_types: ['workspace_update'] })
      .expect(201);
    receiver.secret = hook.body.secret as string;
    const rename = (name: string) =>
      http().patch(`/e/v1/developer/workspaces/${tenant.workspaceId}/`).set(tenant.auth).send({ name }).expect(200);

    for (let i = 0; i < 8; i++) await rename(`before-${i}`);
    await eventually(async () => {
      const deliveries = (await http().get(`/developer/webhooks/${hook.body.id}/deliveries/`).set(tenant.auth).expect(200)).body.results;
      expect(deliveries).toHaveLength(8);
      // The endpoint is backing off: one delivery probes it, the others wait for it.
      expect(deliveries.some((d: { attempts: number; last_error: string | null }) => d.attempts >= 1 && d.last_error !== null)).toBe(true);
    });
    // And a few the killed instance may not even have sealed or fanned out.
    for (let i = 0; i < 4; i++) await rename(`last-${i}`);
    await crash.kill();

    await receiver.start();
    const survivor = await crash.takeOver();
    const dev = { Authorization: tenant.auth.Authorization };
    const expected = (
      (await survivor.http().get('/developer/audit/').query({ workspace_id: tenant.workspaceId, event_type: 'workspace_update' }).set(dev))
        .body.results as { id: string }[]
    ).map((e) => e.id);
    expect(expected).toHaveLength(12);
    await eventually(() => expect(new Set(receiver.eventIds())).toEqual(new Set(expected)), { timeoutMs: 30_000 });
    expect(receiver.rejected).toEqual([]);
    // At least once: a duplicate (a send whose success was not recorded before the kill) carries the same webhook-id.
    const idsByEvent = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      idsByEvent.set(String(r.payload.data.id), (idsByEvent.get(String(r.payload.data.id)) ?? new Set()).add(r.id));
    }
    for (const ids of idsByEvent.values()) expect(ids.size).toBe(1);
  }, 120_000);
});
