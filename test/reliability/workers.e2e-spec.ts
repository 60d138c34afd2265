import { Client } from 'pg';
import request from 'supertest';
import { AppProcess, spawnApp } from '../support/app-process';
import { eventually } from '../support/eventually';
import { PrivatePostgres, startPrivatePostgres } from '../support/private-stores';
import { setUpTenantAt } from '../support/remote-tenant';

/** The pids of the processes that logged that they listen on the port. */
function listeningPids(app: AppProcess): Set<number> {
  const pids = new Set<number>();
  for (const line of app.logs) {
    if (!line.includes('listening on')) continue;
    try {
      pids.add((JSON.parse(line) as { pid: number }).pid);
    } catch {
      /* not a JSON log line */
    }
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** WEB_CONCURRENCY=2 against an empty database: what must happen once happens once. */
describe('one instance with two worker processes', () => {
  let pg: PrivatePostgres;
  let app: AppProcess;
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    app = await spawnApp({ DATABASE_URL: pg.url, WEB_CONCURRENCY: '2', LOG_FORMAT: 'json', LOG_FILE: '', AUDIT_SEAL_INTERVAL_MS: '100' });
  }, 120_000);
  afterAll(async () => {
    await app?.stop('SIGKILL');
    pg?.destroy();
  });

  it('runs two workers on one port, migrates once, seals one chain, replaces a killed worker (and all of them at once) and stops on SIGTERM', async () => {
    const workers = await eventually(
      () => {
        const pids = listeningPids(app);
        expect(pids.size).toBe(2);
        return [...pids];
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    expect(workers).not.toContain(app.child.pid);
    expect(app.logs.some((line) => line.includes('started 2 workers'))).toBe(true);

    const client = new Client({ connectionString: pg.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ runs: number }>(`SELECT count(*)::int AS runs FROM schema_migrations GROUP BY name`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.runs === 1)).toBe(true);

      // Writes spread over both workers; both run a sealer, and the chain they build is one.
      const tenant = await setUpTenantAt(app.baseUrl);
      const token = await request(app.baseUrl)
        .post('/developer/scim/tokens/')
        .set(tenant.auth)
        .send({ workspace_id: tenant.workspaceId, label: 'idp' })
        .expect(201);
      const scim = { Authorization: `Bearer ${token.body.token as string}` };
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request(app.baseUrl)
            .post('/scim/v2/Users')
            .set(scim)
            .send({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `worker-${i}-${Date.now()}@example.com` })
            .expect(201),
        ),
      );
      // Everything sealed first, then verified: a verification read before the last pass would see fewer links.
      await eventually(
        async () => {
          const { rows: unsealed } = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM audit_events e WHERE e.workspace_id = $1
               AND NOT EXISTS (SELECT 1 FROM audit_chain l WHERE l.event_id = e.id)`,
            [tenant.workspaceId],
          );
          expect(unsealed[0].n).toBe(0);
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      const verified = (
        await request(app.baseUrl).get(`/developer/audit/verify/?workspace_id=${tenant.workspaceId}`).set(tenant.auth).expect(200)
      ).body as { verified: number; first_break: unknown };
      expect(verified.first_break).toBeNull();
      expect(verified.verified).toBeGreaterThanOrEqual(20);
    } finally {
      await client.end();
    }

    // A worker that dies is replaced; the port keeps answering meanwhile.
    process.kill(workers[0], 'SIGKILL');
    await eventually(
      async () => {
        expect(listeningPids(app).size).toBe(3);
        expect((await fetch(`${app.baseUrl}/health/ready`)).status).toBe(200);
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );

    // Every worker killed at once: the primary stays up and starts two again.
    const serving = [...listeningPids(app)].filter(alive);
    for (const pid of serving) process.kill(pid, 'SIGKILL');
    await eventually(
      async () => {
        expect(listeningPids(app).size).toBe(5);
        expect((await fetch(`${app.baseUrl}/health/ready`)).status).toBe(200);
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    expect(alive(app.child.pid!)).toBe(true);

    const all = [...listeningPids(app)];
    await app.stop('SIGTERM');
    expect(await app.exited).toBe(0);
    await eventually(() => expect(all.filter(alive)).toEqual([]), { timeoutMs: 30_000 });
  }, 300_000);
});
