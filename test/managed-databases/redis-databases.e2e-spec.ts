import Redis from 'ioredis';
import { createTestApp, type TestApp } from '../support/app';
import { aDeveloper, aWorkspace, type TestDeveloper } from '../support/factories';
import { anAvailableDatabase, createDatabase, deleteAll, managedEnv, untilJobDone, waitFor } from './support';

describe('managed Redis databases', () => {
  let t: TestApp;
  const clients: Redis[] = [];
  const admin = new Redis(managedEnv().MANAGED_REDIS_ADMIN_URL);
  beforeAll(async () => (t = await createTestApp(managedEnv())));
  afterAll(async () => {
    await Promise.all(
      clients.map((c) => (c.status === 'ready' ? c.quit().catch(() => undefined) : c.status === 'end' ? undefined : c.disconnect())),
    );
    await deleteAll(t);
    await t.close();
    admin.disconnect();
  });

  async function connectionOf(dev: TestDeveloper, id: string) {
    return (await t.http().get(`/e/v1/developer/databases/${id}/connection/`).set(dev.auth).expect(200)).body;
  }
  /** What a tenant does with the details: connect with username and password from the URL. */
  async function tenantClient(connectionString: string): Promise<Redis> {
    const c = new Redis(connectionString, {
      enableReadyCheck: false,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      // disconnect() of a client the server already dropped arms a 2 s timer nothing clears (it held the worker open).
      disconnectTimeout: 50,
    });
    c.on('error', () => undefined);
    clients.push(c);
    await c.connect();
    return c;
  }

  it('creates an ACL user whose connection string writes and reads under its key prefix', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const created = await createDatabase(t, dev, ws, 'redis', 'Cache');
    expect(created).toMatchObject({ engine: 'redis', status: 'creating', port: 6379, max_storage_mb: 256 });
    const db = await anAvailableDatabase(t, dev, ws, 'redis');
    const conn = await connectionOf(dev, db.id);
    expect(conn).toMatchObject({ host: '127.0.0.1', port: 6379, database: '0', key_prefix: `${db.db_name}:`, ssl_mode: 'disable' });
    expect(conn.connection_string).toBe(`redis://${conn.username}:${conn.password}@127.0.0.1:6379/0`);
    const c = await tenantClient(conn.connection_string);
    await c.set(`${conn.key_prefix}greeting`, 'hello');
    expect(await c.get(`${conn.key_prefix}greeting`)).toBe('hello');
    await expect(c.set('outside-the-prefix', 'x')).rejects.toThrow(/NOPERM/);
    await expect(c.call('KEYS', '*')).rejects.toThrow(/NOPERM/);
    await expect(c.call('FLUSHALL')).rejects.toThrow(/NOPERM/);
  });

  it("keeps tenant A out of tenant B's keys", async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const [a, b] = await Promise.all([anAvailableDatabase(t, dev, ws, 'redis'), anAvailableDatabase(t, dev, ws, 'redis')]);
    const connB = await connectionOf(dev, b.id);
    const cb = await tenantClient(connB.connection_string);
    await cb.set(`${connB.key_prefix}secret`, 'b-only');
    const ca = await tenantClient((await connectionOf(dev, a.id)).connection_string);
    await expect(ca.get(`${connB.key_prefix}secret`)).rejects.toThrow(/NOPERM/);
    await expect(ca.del(`${connB.key_prefix}secret`)).rejects.toThrow(/NOPERM/);
    expect(await cb.get(`${connB.key_prefix}secret`)).toBe('b-only');
  });

  it('lists the tenant its own keys through the API', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'redis');
    const conn = await connectionOf(dev, db.id);
    const c = await tenantClient(conn.connection_string);
    for (const k of ['a', 'b', 'c']) await c.set(`${conn.key_prefix}${k}`, k);
    const keys: string[] = [];
    let cursor: string | null = '0';
    while (cursor !== null) {
      const page: { body: { keys: string[]; next_cursor: string | null } } = await t
        .http()
        .get(`/e/v1/developer/databases/${db.id}/keys/?cursor=${cursor}&count=100`)
        .set(dev.auth)
        .expect(200);
      keys.push(...page.body.keys);
      cursor = page.body.next_cursor;
    }
    expect(keys.sort()).toEqual(['a', 'b', 'c'].map((k) => `${conn.key_prefix}${k}`));
  });

  it('backs up, and restoring brings changed keys back and removes newer ones', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'redis');
    const conn = await connectionOf(dev, db.id);
    const p = conn.key_prefix as string;
    const c = await tenantClient(conn.connection_string);
    await c.set(`${p}counter`, '1');
    await c.rpush(`${p}queue`, 'job-1', 'job-2');
    const requested = await t.http().post(`/e/v1/developer/databases/${db.id}/backups/`).set(dev.auth).send({ name: 'snap' }).expect(202);
    const backup = await untilJobDone(t, dev, `/e/v1/developer/backups/${requested.body.id}/`);
    expect(backup).toMatchObject({ status: 'completed', checksum_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(backup.size_bytes).toBeGreaterThan(0);

    await c.set(`${p}counter`, '999');
    await c.del(`${p}queue`);
    await c.set(`${p}later`, 'x');
    const restore = await t.http().post(`/e/v1/developer/backups/${backup.id}/restore/`).set(dev.auth).expect(202);
    expect(await untilJobDone(t, dev, `/e/v1/developer/restores/${restore.body.id}/`)).toMatchObject({ status: 'completed' });
    expect(await c.get(`${p}counter`)).toBe('1');
    expect(await c.lrange(`${p}queue`, 0, -1)).toEqual(['job-1', 'job-2']);
    expect(await c.exists(`${p}later`)).toBe(0);
  });

  it('reports key count, memory and connections of the tenant only', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'redis');
    const conn = await connectionOf(dev, db.id);
    const c = await tenantClient(conn.connection_string);
    const empty = (await t.http().get(`/e/v1/developer/databases/${db.id}/metrics/`).set(dev.auth).expect(200)).body;
    expect(empty).toMatchObject({ engine: 'redis', keys: 0, storage_bytes: 0, connections: 1, max_storage_bytes: 256 * 1024 * 1024 });
    for (let i = 0; i < 25; i++) await c.set(`${conn.key_prefix}k${i}`, 'x'.repeat(2000));
    const full = (await t.http().get(`/e/v1/developer/databases/${db.id}/metrics/`).set(dev.auth).expect(200)).body;
    expect(full.keys).toBe(25);
    expect(full.storage_bytes).toBeGreaterThan(50_000);
  });

  it('turns unhealthy when the ACL user is deleted behind its back', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'redis');
    const ok = (await t.http().get(`/e/v1/developer/databases/${db.id}/health/`).set(dev.auth).expect(200)).body;
    expect(ok).toMatchObject({
      status: 'healthy',
      checks: [
        { name: 'connect', ok: true },
        { name: 'ping', ok: true },
      ],
    });
    await admin.call('ACL', 'DELUSER', (await connectionOf(dev, db.id)).username);
    const bad = (await t.http().get(`/e/v1/developer/databases/${db.id}/health/`).set(dev.auth).expect(200)).body;
    expect(bad.status).toBe('unhealthy');
    expect(bad.checks[0]).toMatchObject({ name: 'connect', ok: false });
  });

  it('deletes the ACL user and every key of the database', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'redis');
    const conn = await connectionOf(dev, db.id);
    const c = await tenantClient(conn.connection_string);
    await c.set(`${conn.key_prefix}x`, '1');
    await t.http().delete(`/e/v1/developer/databases/${db.id}/`).set(dev.auth).expect(202);
    await waitFor(
      () => t.http().get(`/e/v1/developer/databases/${db.id}/`).set(dev.auth),
      (r) => r.status === 404,
      'database to be gone',
    );
    expect(await admin.call('ACL', 'GETUSER', conn.username)).toBeNull();
    expect(await admin.exists(`${conn.key_prefix}x`)).toBe(0);
  });

  it('drops the databases of a deleted workspace instead of leaking them', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'redis');
    const conn = await connectionOf(dev, db.id);
    await t.http().delete(`/e/v1/developer/workspaces/${ws.id}/`).set(dev.auth).expect(204);
    await waitFor(
      () => t.dataSource.query(`SELECT 1 FROM managed_databases WHERE id = $1`, [db.id]),
      (rows: unknown[]) => rows.length === 0,
      'the database row to be dropped with the workspace',
    );
    expect(await admin.call('ACL', 'GETUSER', conn.username)).toBeNull();
  });
});
