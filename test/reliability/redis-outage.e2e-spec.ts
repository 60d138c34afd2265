import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper } from '../support/factories';
import { PrivateRedis, startPrivateRedis } from '../support/private-stores';

describe('Redis outage', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await createTestApp({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await t?.close();
    redis?.stop();
  });

  it('stays ready and serves requests without Redis, saying in readiness that it is degraded', async () => {
    const before = await t.http().get('/health/ready').expect(200);
    expect(before.body.details.redis).toEqual({ status: 'up' });
    redis.stop();
    const during = await t.http().get('/health/ready').expect(200);
    expect(during.body.details.redis).toMatchObject({ status: 'up', degraded: true });
    const dev = await aDeveloper(t);
    await t.http().post('/e/v1/developer/workspaces/').set(dev.auth).send({ name: 'no redis' }).expect(201);
    await redis.start();
    await eventually(
      async () => {
        const res = await t.http().get('/health/ready');
        expect({ status: res.status, degraded: Boolean(res.body.details?.redis?.degraded) }).toEqual({ status: 200, degraded: false });
      },
      { timeoutMs: 10_000, intervalMs: 200 },
    );
  }, 60000);
});
