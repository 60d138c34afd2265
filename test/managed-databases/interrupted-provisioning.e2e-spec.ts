import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { JobsService } from '../../src/jobs/jobs.service';
import { sql } from '../../src/managed-databases/engines/postgres/postgres-sql';
import { ManagedDatabase } from '../../src/managed-databases/entities/managed-database.entity';
import { TenantSecrets } from '../../src/managed-databases/tenant-secrets';
import { createTestApp, type TestApp } from '../support/app';
import { aDeveloper, aWorkspace } from '../support/factories';
import { createDatabase, deleteAll, managedEnv, untilStatus } from './support';

const ADMIN_URL = managedEnv().MANAGED_POSTGRES_ADMIN_URL;
/** Instances of one deployment share the keyring, or B could not read A's sealed passwords. */
const SHARED = { SECRETS_ENCRYPTION_KEY: `shared:${randomBytes(32).toString('base64')}` };

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Instance A accepts the request and its worker dies half-way through provisioning
 * (the role exists, the database does not, the job is still leased to A). Instance
 * B takes the job once the lease runs out and finishes the work exactly once.
 */
describe('interrupted provisioning', () => {
  let a: TestApp;
  let b: TestApp | undefined;
  beforeAll(async () => (a = await createTestApp(managedEnv({ ...SHARED, JOBS_WORKER_ENABLED: 'false' }))));
  afterAll(async () => {
    await deleteAll(a);
    await b?.close();
    await a.close();
  });

  it('resumes on another instance after the first worker died mid-way, and finishes once', async () => {
    const dev = await aDeveloper(a);
    const ws = await aWorkspace(a, dev);
    const created = await createDatabase(a, dev, ws, 'postgres', 'Resumed');

    // What the dead worker left behind: the job claimed under a lease that has run out,
    // and the first provisioning step done (the role, with a different connection limit).
    const [[job]] = await a.dataSource.query(
      `UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'dead-worker', locked_until = now() - interval '1 second'
        WHERE queue = 'managed-db.provision' AND payload->>'databaseId' = $1 RETURNING id`,
      [created.id],
    );
    const row = await a.dataSource.getRepository(ManagedDatabase).findOneByOrFail({ id: created.id });
    const tenant = a.get<TenantSecrets>(TenantSecrets).tenant(row);
    await admin((c) => c.query(sql.createRole(tenant.username, tenant.password, 3)));

    b = await createTestApp(managedEnv(SHARED));
    await untilStatus(b, dev, created.id, 'available');

    const conn = (await b.http().get(`/e/v1/developer/databases/${created.id}/connection/`).set(dev.auth).expect(200)).body;
    const c = new Client({ connectionString: conn.connection_string });
    await c.connect();
    expect((await c.query('SELECT current_database() AS db')).rows[0].db).toBe(created.db_name);
    await c.end();

    const [done] = await a.dataSource.query(`SELECT status, attempts, locked_by FROM jobs WHERE id = $1`, [job.id]);
    expect(done.status).toBe('completed');
    expect(done.attempts).toBe(2);
    expect(done.locked_by).not.toBe('dead-worker');
    const state = await admin(async (cl) => ({
      dbs: (await cl.query('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [created.db_name])).rows[0].n,
      limit: (await cl.query('SELECT rolconnlimit FROM pg_roles WHERE rolname = $1', [tenant.username])).rows[0].rolconnlimit,
    }));
    expect(state).toEqual({ dbs: 1, limit: 20 });
    // B's worker polls the shared jobs table: left running, it would race the next tests for their
    // jobs (it has a reachable engine). Stop the worker only: B stays up until afterAll, because
    // Passport's strategy registry is per process and the last app created owns the strategies.
    await b.get<JobsService>(JobsService).onApplicationShutdown();
  });

  it('does nothing when a finished provisioning job is delivered again', async () => {
    const dev = await aDeveloper(a);
    const ws = await aWorkspace(a, dev);
    const created = await createDatabase(a, dev, ws, 'postgres');
    const jobsA = a.get<JobsService>(JobsService);
    // Drain with instance A's own service (its poller is off): provision once.
    await a.dataSource.query(`UPDATE jobs SET run_at = now() WHERE queue = 'managed-db.provision' AND payload->>'databaseId' = $1`, [
      created.id,
    ]);
    await jobsA.drain();
    await untilStatus(a, dev, created.id, 'available');
    await a.dataSource.query(`UPDATE managed_databases SET updated_at = '2000-01-01' WHERE id = $1`, [created.id]);

    // The same job again (a duplicate delivery): it must leave the database untouched.
    await a.dataSource.manager.transaction((m) => jobsA.enqueue(m, 'managed-db.provision', { databaseId: created.id, workspaceId: ws.id }));
    await jobsA.drain();
    const [row] = await a.dataSource.query(`SELECT status, updated_at FROM managed_databases WHERE id = $1`, [created.id]);
    expect(row.status).toBe('available');
    expect(new Date(row.updated_at).getUTCFullYear()).toBe(2000);
  });

  it('turns failed, with the error, when the last attempt cannot reach the engine', async () => {
    const broken = await createTestApp(
      managedEnv({ JOBS_WORKER_ENABLED: 'false', MANAGED_POSTGRES_ADMIN_URL: 'postgres://postgres@127.0.0.1:1/postgres' }),
    );
    try {
      const dev = await aDeveloper(broken);
      const ws = await aWorkspace(broken, dev);
      const created = await createDatabase(broken, dev, ws, 'postgres');
      // Earlier attempts already failed (backoff 2, 4, 8, 16 s); this is the last one.
      await broken.dataSource.query(
        `UPDATE jobs SET attempts = max_attempts - 1, run_at = now() WHERE queue = 'managed-db.provision' AND payload->>'databaseId' = $1`,
        [created.id],
      );
      await broken.get<JobsService>(JobsService).drain();
      const db = (await broken.http().get(`/e/v1/developer/databases/${created.id}/`).set(dev.auth).expect(200)).body;
      expect(db.status).toBe('failed');
      expect(db.error).toMatch(/ECONNREFUSED|connect/);
      await broken.http().get(`/e/v1/developer/databases/${created.id}/connection/`).set(dev.auth).expect(409);
      const events = await broken.dataSource.query(`SELECT event_type FROM audit_events WHERE target_id = $1 ORDER BY created_at`, [
        created.id,
      ]);
      expect(events.map((e: { event_type: string }) => e.event_type)).toEqual([
        'managed_database_create',
        'managed_database_provision_fail',
      ]);
      // A failed database can still be deleted.
      await broken.http().delete(`/e/v1/developer/databases/${created.id}/`).set(dev.auth).expect(202);
    } finally {
      await broken.dataSource.query(`DELETE FROM managed_databases WHERE status = 'deleting'`);
      await broken.close();
    }
  });
});
