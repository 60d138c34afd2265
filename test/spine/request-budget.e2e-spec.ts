import { randomUUID } from 'node:crypto';
import { ERROR_SCHEMA, aScimTenant, ScimTenant } from '../scim/scim-support';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper } from '../support/factories';

type Reply = { status: number; headers: Record<string, string>; body: Record<string, unknown> };

/** Sends `send` one request after another until one is refused; returns how many passed first and the refusal. */
async function untilRefused(send: (i: number) => Promise<Reply>, max: number): Promise<{ passed: number; refusal: Reply }> {
  for (let i = 0; i < max; i++) {
    const res = await send(i);
    expect(res.status).toBeLessThan(500);
    if (res.status === 429) return { passed: i, refusal: res };
    expect(res.status).toBe(200);
  }
  throw new Error(`no request of ${max} was refused`);
}

describe('per-tenant request budgets (a noisy workspace cannot take the others’ share)', () => {
  describe('one instance with Redis, 1 request/s and a burst of 5', () => {
    let t: TestApp;
    let noisy: ScimTenant;
    let quiet: ScimTenant;

    beforeAll(async () => {
      t = await createTestApp({ TENANT_RATE_PER_SECOND: '1', TENANT_BURST: '5' });
      noisy = await aScimTenant(t);
      quiet = await aScimTenant(t);
    });
    afterAll(() => t.close());

    it('answers within budget with RateLimit headers, then 429 with Retry-After and the SCIM error body', async () => {
      const first = await noisy.get('/Users?count=1');
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('"workspace";q=1;w=1');
      expect(first.headers['ratelimit']).toMatch(/^"workspace";r=\d+;t=\d+$/);

      const { passed, refusal } = await untilRefused((i) => noisy.get(`/Users?count=1&startIndex=${i + 1}`), 60);
      expect(passed).toBeGreaterThanOrEqual(3);
      expect(Number(refusal.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refusal.headers['content-type']).toContain('application/scim+json');
      expect(refusal.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '429' });
      expect(refusal.headers['ratelimit']).toMatch(/^"workspace";r=0;t=[1-9]\d*$/);

      // The other workspace still has its whole budget.
      const other = await quiet.get('/Users?count=1');
      expect(other.status).toBe(200);

      // The bucket refills: the noisy workspace is served again once Retry-After has passed.
      await eventually(
        async () => {
          expect((await noisy.get('/Users?count=1')).status).toBe(200);
        },
        { timeoutMs: 20_000, intervalMs: 250 },
      );
    });

    it('refuses a credential it has just refused before parsing or routing, with the same answer', async () => {
      const tenant = await aScimTenant(t);
      const { refusal } = await untilRefused((i) => tenant.get(`/Users?count=1&startIndex=${i + 1}`), 60);

      // Within the token interval (1 s at this rate) the next request is refused before its body is read:
      // a malformed body, which routing would answer 400, is answered 429 like the refusal above.
      const early = await t
        .http()
        .post('/scim/v2/Users')
        .set({ Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/scim+json' })
        .send('{"schemas": [');
      expect(early.status).toBe(429);
      const names = (h: Record<string, string>) =>
        Object.keys(h)
          .filter((n) => !['date', 'content-length', 'x-request-id'].includes(n))
          .sort();
      expect(names(early.headers)).toEqual(names(refusal.headers));
      expect(early.headers['content-type']).toBe(refusal.headers['content-type']);
      expect(early.headers['ratelimit-policy']).toBe('"workspace";q=1;w=1');
      expect(early.headers['ratelimit']).toMatch(/^"workspace";r=0;t=[1-9]\d*$/);
      expect(Number(early.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(early.body).toEqual({ schemas: [ERROR_SCHEMA], status: '429', detail: expect.stringMatching(/over its request budget/) });
      expect(Object.keys(early.body).sort()).toEqual(Object.keys(refusal.body).sort());

      const metrics = await t.http().get('/metrics').expect(200);
      expect(metrics.text).toMatch(/request_budget_refusals_total\{policy="workspace",reason="rate",where="before_routing"\} [1-9]/);

      // The bucket refills and the same credential is authenticated and served again.
      await eventually(
        async () => {
          expect((await tenant.get('/Users?count=1')).status).toBe(200);
        },
        { timeoutMs: 20_000, intervalMs: 250 },
      );
    });

    it('a developer account has its own budget on the developer API, answered with the JSON error body', async () => {
      const dev = await aDeveloper(t);
      const { refusal } = await untilRefused(() => t.http().get('/e/v1/developer/workspaces').set(dev.auth), 60);
      expect(refusal.headers['content-type']).toContain('application/json');
      expect(refusal.body).toMatchObject({ error: 'rate_limited' });
      expect(refusal.headers['ratelimit-policy']).toBe('"developer";q=1;w=1');
      expect(Number(refusal.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });
  });

  it('two instances sharing Redis spend one budget per workspace', async () => {
    const prefix = `test:${randomUUID()}:`;
    const budget = { TENANT_RATE_PER_SECOND: '1', TENANT_BURST: '20', REDIS_KEY_PREFIX: prefix };
    const a = await createTestApp(budget);
    const b = await createTestApp(budget);
    try {
      const tenant = await aScimTenant(a);
      const auth = { Authorization: `Bearer ${tenant.token}` };
      // Alternate between the instances: separate buckets would let about 40 requests through.
      const { passed } = await untilRefused((i) => (i % 2 === 0 ? a : b).http().get('/scim/v2/Users?count=1').set(auth), 200);
      expect(passed).toBeGreaterThanOrEqual(10);
      expect(passed).toBeLessThan(40);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('without Redis the budget is kept in process memory, exact on one instance', async () => {
    const t = await createTestApp({ REDIS_URL: '', TENANT_RATE_PER_SECOND: '1', TENANT_BURST: '5' });
    try {
      const tenant = await aScimTenant(t);
      const { passed, refusal } = await untilRefused((i) => tenant.get(`/Users?count=1&startIndex=${i + 1}`), 60);
      expect(passed).toBeGreaterThanOrEqual(3);
      expect(refusal.body).toMatchObject({ status: '429' });
    } finally {
      await t.close();
    }
  });

  it('caps a workspace’s requests in flight: the excess is refused with 429, never queued into a 5xx', async () => {
    const t = await createTestApp({ TENANT_RATE_PER_SECOND: '0', TENANT_MAX_IN_FLIGHT: '1' });
    try {
      const tenant = await aScimTenant(t);
      const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => tenant.get(`/Users?count=5&startIndex=${i + 1}`)));
      const statuses = replies.map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
      expect(statuses).toContain(200);
      const refused = replies.find((r) => r.status === 429)!;
      expect(refused).toBeDefined();
      expect(refused.body.detail).toMatch(/in flight/);
      expect(refused.headers['retry-after']).toBe('1');
      // Nothing stays counted: after the burst, requests one at a time all pass.
      for (let i = 0; i < 5; i++) expect((await tenant.get('/Users?count=1')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
