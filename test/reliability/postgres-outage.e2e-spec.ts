import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, TestDeveloper } from '../support/factories';
import { PrivatePostgres, startPrivatePostgres } from '../support/private-stores';

/** The database goes away under load and comes back: clients get 503s, never 500s or hangs, and service resumes. */
describe('PostgreSQL outage', () => {
  let pg: PrivatePostgres;
  let t: TestApp;
  let dev: TestDeveloper;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    t = await createTestApp({ DATABASE_URL: pg.url, DATABASE_POOL_SIZE: '4' });
    dev = await aDeveloper(t);
  }, 120000);
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    pg?.destroy();
  });

  const timedGet = async (path: string, auth = true) => {
    const started = Date.now();
    const req = t.http().get(path).timeout(15000);
    const res = await (auth ? req.set(dev.auth) : req);
    return { res, ms: Date.now() - started };
  };

  it('answers 503 with the JSON error body during the outage, reports not ready, and recovers by itself', async () => {
    expect((await timedGet('/e/v1/developer/workspaces/')).res.status).toBe(200);
    pg.stop('immediate');
    try {
      for (let i = 0; i < 5; i++) {
        const { res, ms } = await timedGet('/e/v1/developer/workspaces/');
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'service_unavailable', message: expect.any(String), request_id: expect.any(String) });
        expect(res.headers['retry-after']).toBeDefined();
        expect(ms).toBeLessThan(10000);
      }
      const ready = await timedGet('/health/ready', false);
      expect(ready.res.status).toBe(503);
      expect(ready.res.body).toMatchObject({ error: 'service_unavailable', details: { database: { status: 'down' } } });
      expect((await timedGet('/health/live', false)).res.status).toBe(200);
    } finally {
      pg.start();
    }
    await eventually(async () => expect((await timedGet('/e/v1/developer/workspaces/')).res.status).toBe(200), {
      timeoutMs: 10_000,
      intervalMs: 200,
    });
    expect((await timedGet('/health/ready', false)).res.status).toBe(200);
  }, 120000);
});
