import { Client } from 'pg';
import { createTestApp, type TestApp } from '../support/app';
import { aDeveloper, aWorkspace } from '../support/factories';
import { anAvailableDatabase, createDatabase, deleteAll, managedEnv, untilJobDone, untilStatus, waitFor } from './support';

const ADMIN_URL = managedEnv().MANAGED_POSTGRES_ADMIN_URL;

async function withClient<T>(connectionString: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const adminQuery = (sql: string, params: unknown[] = []) => withClient(ADMIN_URL, async (c) => (await c.query(sql, params)).rows);

describe('managed Postgres databases', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp(managedEnv())));
  afterAll(async () => {
    await deleteAll(t);
    await t.close();
  });

  it('creates a database that becomes available and accepts the returned connection string', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const created = await createDatabase(t, dev, ws, 'postgres', 'Orders DB');
    expect(created).toMatchObject({
      display_name: 'Orders DB',
      engine: 'postgres',
      status: 'creating',
      host: '127.0.0.1',
      port: 5432,
      max_storage_mb: 1024,
      max_connections: 20,
    });
    expect(created.db_name).toMatch(/^orders_db_[a-z0-9]{10}$/);
    await untilStatus(t, dev, created.id, 'available');

    const conn = await t.http().get(`/e/v1/developer/databases/${created.id}/connection/`).set(dev.auth).expect(200);
    expect(conn.body).toMatchObject({ host: '127.0.0.1', port: 5432, database: created.db_name, ssl_mode: 'disable' });
    expect(conn.body.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const rows = await withClient(conn.body.connection_string, async (c) => {
      await c.query('CREATE TABLE notes (body text)');
      await c.query("INSERT INTO notes VALUES ('written by the tenant')");
      return (await c.query('SELECT body FROM notes')).rows;
    });
    expect(rows).toEqual([{ body: 'written by the tenant' }]);

    const role = await adminQuery('SELECT rolconnlimit, rolsuper, rolcreaterole FROM pg_roles WHERE rolname = $1', [conn.body.username]);
    expect(role).toEqual([{ rolconnlimit: 20, rolsuper: false, rolcreaterole: false }]);
    const stored = await t.dataSource.query('SELECT password_encrypted FROM managed_databases WHERE id = $1', [created.id]);
    expect(stored[0].password_encrypted).not.toContain(conn.body.password);
    expect(stored[0].password_encrypted).toMatch(/^v1:test:/);
  });

  it("refuses tenant A's credentials on tenant B's database", async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const [a, b] = await Promise.all([anAvailableDatabase(t, dev, ws, 'postgres'), anAvailableDatabase(t, dev, ws, 'postgres')]);
    const connA = (await t.http().get(`/e/v1/developer/databases/${a.id}/connection/`).set(dev.auth)).body;
    const url = new URL(connA.connection_string);
    url.pathname = `/${b.db_name}`;
    await expect(withClient(url.toString(), async () => undefined)).rejects.toThrow(/permission denied for database/);
  });

  it('lists databases per workspace and counts them on the workspace', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'postgres');
    const list = await t.http().get(`/e/v1/developer/workspaces/${ws.id}/databases/`).set(dev.auth).expect(200);
    expect(list.body.results.map((d: { id: string }) => d.id)).toEqual([db.id]);
    const workspaces = await t.http().get('/e/v1/developer/workspaces/').set(dev.auth).expect(200);
    expect(workspaces.body.find((w: { id: string }) => w.id === ws.id).database_count).toBe(1);

    await t.http().delete(`/e/v1/developer/databases/${db.id}/`).set(dev.auth).expect(202);
    const after = await t.http().get('/e/v1/developer/workspaces/').set(dev.auth).expect(200);
    expect(after.body.find((w: { id: string }) => w.id === ws.id).database_count).toBe(0);
  });

  it('backs up, and restoring the backup brings changed data back', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'postgres');
    const cs = (await t.http().get(`/e/v1/developer/databases/${db.id}/connection/`).set(dev.auth)).body.connection_string;
    await withClient(cs, async (c) => {
      await c.query('CREATE TABLE items (name text)');
      await c.query("INSERT INTO items VALUES ('original')");
    });

    const requested = await t
      .http()
      .post(`/e/v1/developer/databases/${db.id}/backups/`)
      .set(dev.auth)
      .send({ name: 'nightly' })
      .expect(202);
    expect(requested.body).toEqual({
      id: expect.any(String),
      database_id: db.id,
      name: 'nightly',
      status: 'pending',
      size_bytes: null,
      checksum_sha256: null,
      created_at: expect.any(String),
      started_at: null,
      completed_at: null,
      error: null,
    });
    const backup = await untilJobDone(t, dev, `/e/v1/developer/backups/${requested.body.id}/`);
    expect(backup).toMatchObject({ status: 'completed', error: null });
    expect(backup.size_bytes).toBeGreaterThan(0);
    expect(backup.checksum_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(backup.completed_at).toEqual(expect.any(String));
    const list = await t.http().get(`/e/v1/developer/databases/${db.id}/backups/`).set(dev.auth).expect(200);
    expect(list.body.results.map((b: { id: string }) => b.id)).toEqual([backup.id]);

    await withClient(cs, (c) => c.query("UPDATE items SET name = 'overwritten'"));
    const restore = await t.http().post(`/e/v1/developer/backups/${backup.id}/restore/`).set(dev.auth).expect(202);
    expect(restore.body).toMatchObject({ backup_id: backup.id, database_id: db.id, status: 'pending' });
    expect(await untilJobDone(t, dev, `/e/v1/developer/restores/${restore.body.id}/`)).toMatchObject({ status: 'completed' });
    const names = await withClient(cs, async (c) => (await c.query('SELECT name FROM items')).rows.map((r) => r.name));
    expect(names).toEqual(['original']);
  });

  it('reports metrics that follow written data', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'postgres');
    const before = (await t.http().get(`/e/v1/developer/databases/${db.id}/metrics/`).set(dev.auth).expect(200)).body;
    expect(before).toMatchObject({
      database_id: db.id,
      engine: 'postgres',
      collected_at: expect.any(String),
      max_storage_bytes: 1024 * 1024 * 1024,
      max_connections: 20,
    });
    const cs = (await t.http().get(`/e/v1/developer/databases/${db.id}/connection/`).set(dev.auth)).body.connection_string;
    await withClient(cs, async (c) => {
      await c.query("CREATE TABLE big AS SELECT g, repeat('x', 500) AS pad FROM generate_series(1, 5000) g");
      const during = (await t.http().get(`/e/v1/developer/databases/${db.id}/metrics/`).set(dev.auth).expect(200)).body;
      expect(during.storage_bytes).toBeGreaterThan(before.storage_bytes + 1_000_000);
      expect(during.connections).toBeGreaterThanOrEqual(1);
    });
  });

  it('reports healthy, then unhealthy once the role is dropped behind its back', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'postgres');
    const ok = (await t.http().get(`/e/v1/developer/databases/${db.id}/health/`).set(dev.auth).expect(200)).body;
    expect(ok).toMatchObject({ database_id: db.id, status: 'healthy', checked_at: expect.any(String) });
    expect(ok.checks).toEqual([
      { name: 'connect', ok: true, latency_ms: expect.any(Number) },
      { name: 'query', ok: true, latency_ms: expect.any(Number) },
    ]);
    const username = (await t.http().get(`/e/v1/developer/databases/${db.id}/connection/`).set(dev.auth)).body.username;
    await adminQuery(`DROP DATABASE "${db.db_name}" WITH (FORCE)`);
    await adminQuery(`DROP ROLE "${username}"`);
    const bad = (await t.http().get(`/e/v1/developer/databases/${db.id}/health/`).set(dev.auth).expect(200)).body;
    expect(bad.status).toBe('unhealthy');
    expect(bad.checks[0]).toMatchObject({ name: 'connect', ok: false, error: expect.any(String) });
  });

  it('deletes: 202 deleting, then gone, with the role and database dropped', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'postgres');
    const username = (await t.http().get(`/e/v1/developer/databases/${db.id}/connection/`).set(dev.auth)).body.username;
    const res = await t.http().delete(`/e/v1/developer/databases/${db.id}/`).set(dev.auth).expect(202);
    expect(res.body).toMatchObject({ id: db.id, status: 'deleting' });
    await waitFor(
      () => t.http().get(`/e/v1/developer/databases/${db.id}/`).set(dev.auth),
      (r) => r.status === 404,
      'database to be gone',
    );
    expect(await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [db.db_name])).toEqual([]);
    expect(await adminQuery('SELECT 1 FROM pg_roles WHERE rolname = $1', [username])).toEqual([]);
  });

  it('records create, credential read, backup, restore and delete in the audit log', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'postgres');
    await t.http().get(`/e/v1/developer/databases/${db.id}/connection/`).set(dev.auth).expect(200);
    const backup = await t.http().post(`/e/v1/developer/databases/${db.id}/backups/`).set(dev.auth).send({ name: 'b' }).expect(202);
    await untilJobDone(t, dev, `/e/v1/developer/backups/${backup.body.id}/`);
    const restore = await t.http().post(`/e/v1/developer/backups/${backup.body.id}/restore/`).set(dev.auth).expect(202);
    await untilJobDone(t, dev, `/e/v1/developer/restores/${restore.body.id}/`);
    await t.http().delete(`/e/v1/developer/databases/${db.id}/`).set(dev.auth).expect(202);
    const rows = (await t.dataSource.query(
      `SELECT event_type, actor_id FROM audit_events WHERE workspace_id = $1 AND event_type LIKE 'managed_database_%' ORDER BY created_at`,
      [ws.id],
    )) as { event_type: string; actor_id: string }[];
    expect(rows.map((r) => r.event_type)).toEqual([
      'managed_database_create',
      'managed_database_credentials_read',
      'managed_database_backup_create',
      'managed_database_restore',
      'managed_database_delete',
    ]);
    expect(rows.every((r) => r.actor_id === dev.id)).toBe(true);
  });
});
