import { Client } from 'pg';
import { AppProcess, spawnApp } from '../support/app-process';
import { PrivatePostgres, startPrivatePostgres } from '../support/private-stores';

/** Two instances boot at the same moment against an empty database: the schema is migrated once. */
describe('two instances starting together', () => {
  let pg: PrivatePostgres;
  const apps: AppProcess[] = [];
  beforeAll(async () => (pg = await startPrivatePostgres()), 60000);
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    pg?.destroy();
  });

  it('runs each migration exactly once and both become ready', async () => {
    apps.push(...(await Promise.all([spawnApp({ DATABASE_URL: pg.url }), spawnApp({ DATABASE_URL: pg.url })])));
    for (const app of apps) expect((await fetch(`${app.baseUrl}/health/ready`)).status).toBe(200);
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; runs: number }>(
        `SELECT name, count(*)::int AS runs FROM schema_migrations GROUP BY name`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.runs).toBe(1);
    } finally {
      await client.end();
    }
  }, 180000);
});
