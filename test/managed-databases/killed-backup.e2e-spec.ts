import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, type TestApp } from '../support/app';
import { type AppProcess, spawnApp } from '../support/app-process';
import { setUpTenantAt } from '../support/remote-tenant';
import { deleteAll, managedEnv, untilJobDone, untilStatus, waitFor } from './support';

const ADMIN_URL = managedEnv().MANAGED_POSTGRES_ADMIN_URL;
const adminOn = (database: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return new Client({ connectionString: url.toString() });
};

/**
 * The instance dies (SIGKILL) while pg_dump is running a backup: the next instance takes the
 * job over when the lease expires, the backup completes once, and it restores.
 */
describe('worker killed during a backup', () => {
  let crashed: AppProcess | undefined;
  let survivor: TestApp | undefined;

  afterAll(async () => {
    await crashed?.stop('SIGKILL');
    if (survivor) await deleteAll(survivor);
    await survivor?.close();
  });

  it('completes the backup exactly once on the next instance, and the backup restores', async () => {
    const shared = {
      ...managedEnv(),
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      BACKUP_DIR: mkdtempSync(join(tmpdir(), 'idsvc-backups-')),
      JOBS_LEASE_MS: '2000',
    };
    crashed = await spawnApp({ ...shared, LOG_LEVEL: 'warn' });
    const tenant = await setUpTenantAt(crashed.baseUrl);
    const http = () => request(crashed!.baseUrl);
    const created = (
      await http()
        .post(`/e/v1/developer/workspaces/${tenant.workspaceId}/databases/`)
        .set(tenant.auth)
        .send({ display_name: 'Ledger', engine: 'postgres' })
        .expect(201)
    ).body as { id: string; db_name: string };
    await waitFor(
      () => http().get(`/e/v1/developer/databases/${created.id}/`).set(tenant.auth),
      (r) => r.body?.status === 'available',
      'database available',
    );
    const conn = (await http().get(`/e/v1/developer/databases/${created.id}/connection/`).set(tenant.auth).expect(200)).body as {
      connection_string: string;
    };
    const app = new Client({ connectionString: conn.connection_string });
    await app.connect();
    await app.query(`CREATE TABLE ledger (entry text); INSERT INTO ledger VALUES ('before backup')`);

    // Hold pg_dump on a table lock so the backup is in flight when the process dies.
    const blocker = adminOn(created.db_name);
    await blocker.connect();
    await blocker.query('BEGIN; LOCK TABLE ledger IN ACCESS EXCLUSIVE MODE');
    const backup = (
      await http().post(`/e/v1/developer/databases/${created.id}/backups/`).set(tenant.auth).send({ name: 'crash-test' }).expect(202)
    ).body as { id: string };
    const admin = adminOn('postgres');
    await admin.connect();
    const dumping = `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'pg_dump' AND wait_event_type = 'Lock'`;
    await waitFor(
      async () => (await admin.query(dumping, [created.db_name])).rowCount,
      (n) => (n ?? 0) > 0,
      'pg_dump waiting on the lock',
    );
    await crashed.stop('SIGKILL');
    // The machine "died" with it: its pg_dump child goes too.
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'pg_dump'`, [
      created.db_name,
    ]);

    survivor = await createTestApp(shared);
    const dev = { id: '', email: '', password: '', token: '', auth: tenant.auth };
    await blocker.query('COMMIT');
    await blocker.end();
    const done = await untilJobDone(survivor, dev, `/e/v1/developer/backups/${backup.id}/`);
    expect(done).toMatchObject({ status: 'completed', error: null });
    expect(Number(done.size_bytes)).toBeGreaterThan(0);
    const jobs = (await survivor.dataSource.query(
      `SELECT status, attempts FROM jobs WHERE queue = 'managed-db.backup' AND payload->>'backupId' = $1`,
      [backup.id],
    )) as { status: string; attempts: number }[];
    expect(jobs).toEqual([{ status: 'completed', attempts: 2 }]);

    await app.query(`UPDATE ledger SET entry = 'changed after backup'`);
    await app.end();
    const restore = (await survivor.http().post(`/e/v1/developer/backups/${backup.id}/restore/`).set(tenant.auth).expect(202)).body as {
      id: string;
    };
    expect(await untilJobDone(survivor, dev, `/e/v1/developer/restores/${restore.id}/`)).toMatchObject({ status: 'completed' });
    await untilStatus(survivor, dev, created.id, 'available');
    const check = new Client({ connectionString: conn.connection_string });
    await check.connect();
    expect((await check.query('SELECT entry FROM ledger')).rows).toEqual([{ entry: 'before backup' }]);
    await check.end();
    await admin.end();
  }, 180000);
});
