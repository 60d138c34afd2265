import { Client } from 'pg';
import { aTenant, engineTenantsForSuite } from '../../../../test/support/engine-tenants';
import { PostgresEngine } from './postgres.engine';

/** Integration: runs against the machine's Postgres (admin URL below, overridable). */
const ADMIN_URL = process.env.MANAGED_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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

describe('PostgresEngine against a real server', () => {
  const engine = new PostgresEngine({ adminUrl: ADMIN_URL, publicHost: '127.0.0.1', publicPort: 5432, sslMode: 'disable' });
  const tenants = engineTenantsForSuite(engine, { maxStorageMb: 100 });

  it('provisions a database the returned connection string can write to and read from', async () => {
    const t = await tenants.provisioned('rw');
    const { connection_string } = engine.connectionDetails(t);
    const rows = await withClient(connection_string, async (c) => {
      await c.query('CREATE TABLE notes (id serial primary key, body text)');
      await c.query("INSERT INTO notes (body) VALUES ('hello')");
      return (await c.query('SELECT body FROM notes')).rows;
    });
    expect(rows).toEqual([{ body: 'hello' }]);
  });

  it('provisioning twice (a resumed job) neither fails nor changes the outcome', async () => {
    const t = await tenants.provisioned('twice');
    await engine.provision(t);
    const n = await withClient(engine.connectionDetails(t).connection_string, async (c) => (await c.query('SELECT 1 AS n')).rows[0].n);
    expect(n).toBe(1);
    const limit = await withClient(
      ADMIN_URL,
      async (c) => (await c.query('SELECT rolconnlimit FROM pg_roles WHERE rolname = $1', [t.username])).rows[0].rolconnlimit,
    );
    expect(limit).toBe(5);
  });

  it("refuses tenant A's credentials on tenant B's database", async () => {
    const a = await tenants.provisioned('a');
    const b = await tenants.provisioned('b');
    const crossed = `postgresql://${a.username}:${a.password}@127.0.0.1:5432/${b.dbName}`;
    await expect(withClient(crossed, async () => undefined)).rejects.toThrow(/permission denied for database/);
  });

  it('restores a backup over changed data', async () => {
    const t = await tenants.provisioned('backup');
    const url = engine.connectionDetails(t).connection_string;
    await withClient(url, async (c) => {
      await c.query('CREATE TABLE items (name text)');
      await c.query("INSERT INTO items VALUES ('kept')");
    });
    const artifact = await engine.backup(t, tenants.backupPath(`${t.dbName}.dump`));
    expect(artifact.sizeBytes).toBeGreaterThan(0);
    expect(artifact.sha256).toMatch(/^[0-9a-f]{64}$/);
    await withClient(url, async (c) => {
      await c.query("UPDATE items SET name = 'changed'");
      await c.query('CREATE TABLE extra (x int)');
    });
    await engine.restore(t, artifact.path);
    const names = await withClient(url, async (c) => (await c.query('SELECT name FROM items')).rows.map((r) => r.name));
    expect(names).toEqual(['kept']);
    // The tenant still owns what was restored.
    await withClient(url, (c) => c.query("INSERT INTO items VALUES ('after restore')"));
  });

  it('restores as the tenant, so code the tenant planted never runs with admin rights', async () => {
    const t = await tenants.provisioned('planted');
    const url = engine.connectionDetails(t).connection_string;
    // A CHECK constraint runs its function for every restored row.
    await withClient(url, async (c) => {
      await c.query('CREATE TABLE seen (who text)');
      await c.query(`CREATE FUNCTION spy(x int) RETURNS boolean LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO public.seen VALUES (current_user); RETURN true; END $$`);
      await c.query('CREATE TABLE data (x int CHECK (spy(x)))');
      await c.query('INSERT INTO data VALUES (1)');
      await c.query('DELETE FROM seen');
    });
    const artifact = await engine.backup(t, tenants.backupPath(`${t.dbName}.dump`));
    await engine.restore(t, artifact.path);
    const who = await withClient(url, async (c) => (await c.query('SELECT DISTINCT who FROM seen')).rows.map((r) => r.who));
    expect(who).toEqual([t.username]);
  });

  it('reports storage and connections from the server', async () => {
    const t = await tenants.provisioned('metrics');
    const before = await engine.metrics(t);
    await withClient(engine.connectionDetails(t).connection_string, async (c) => {
      await c.query("CREATE TABLE big AS SELECT g, repeat('x', 500) AS pad FROM generate_series(1, 5000) g");
      const during = await engine.metrics(t);
      expect(during.connections).toBeGreaterThanOrEqual(1);
      expect(during.storage_bytes).toBeGreaterThan(before.storage_bytes + 1_000_000);
    });
  });

  it('turns unhealthy when the role is dropped behind its back', async () => {
    const t = await tenants.provisioned('health');
    const ok = await engine.health(t);
    expect(ok.status).toBe('healthy');
    expect(ok.checks.map((c) => c.name)).toEqual(['connect', 'query']);
    await withClient(ADMIN_URL, async (c) => {
      await c.query(`DROP DATABASE "${t.dbName}" WITH (FORCE)`);
      await c.query(`DROP ROLE "${t.username}"`);
    });
    const bad = await engine.health(t);
    expect(bad.status).toBe('unhealthy');
    expect(bad.checks[0]).toMatchObject({ name: 'connect', ok: false });
  });

  it('deprovision removes the database and the role, even with a client connected, and can run again', async () => {
    const t = await tenants.provisioned('drop');
    const held = new Client({ connectionString: engine.connectionDetails(t).connection_string });
    held.on('error', () => undefined);
    await held.connect();
    await engine.deprovision(t);
    await engine.deprovision(t);
    await held.end().catch(() => undefined);
    const left = await withClient(ADMIN_URL, async (c) => ({
      db: (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [t.dbName])).rowCount,
      role: (await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [t.username])).rowCount,
    }));
    expect(left).toEqual({ db: 0, role: 0 });
  });

  it('reports itself unavailable without an admin URL', async () => {
    const off = new PostgresEngine({ publicHost: 'h', publicPort: 6432 });
    expect(off.isAvailable()).toBe(false);
    await expect(off.provision(aTenant('off'))).rejects.toThrow(/not configured/);
    expect((await off.health(aTenant('off'))).status).toBe('unknown');
  });
});
