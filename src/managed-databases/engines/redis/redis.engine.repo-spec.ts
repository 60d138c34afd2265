import Redis from 'ioredis';
import { aTenant, engineTenantsForSuite } from '../../../../test/support/engine-tenants';
import type { TenantDatabase } from '../database-engine';
import { RedisEngine } from './redis.engine';

/** Integration: the machine's shared Redis. Only our own prefixes and ACL users are touched. */
const ADMIN_URL = process.env.MANAGED_REDIS_ADMIN_URL ?? 'redis://127.0.0.1:6379';

describe('RedisEngine against a real server', () => {
  const engine = new RedisEngine({ adminUrl: ADMIN_URL, publicHost: '127.0.0.1', publicPort: 6379 });
  const admin = new Redis(ADMIN_URL);
  const clients: Redis[] = [];
  const tenants = engineTenantsForSuite(engine, {
    beforeCleanUp: async () => {
      await Promise.all(
        clients.map((c) => (c.status === 'ready' ? c.quit().catch(() => undefined) : c.status === 'end' ? undefined : c.disconnect())),
      );
    },
  });
  const connect = (t: TenantDatabase, as: TenantDatabase = t) => {
    const c = new Redis(engine.connectionDetails(as).connection_string, {
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      // disconnect() of a client whose socket the server already closed (DELUSER) arms a timer that
      // nothing clears: 2 s by default, which kept the Jest worker alive past its exit (force-exited).
      disconnectTimeout: 50,
    });
    c.on('error', () => undefined);
    clients.push(c);
    return c;
  };

  afterAll(() => admin.disconnect());

  it('gives a user that reads and writes under its prefix with the returned connection string', async () => {
    const t = await tenants.provisioned('rw');
    const details = engine.connectionDetails(t);
    expect(details.key_prefix).toBe(`${t.dbName}:`);
    const c = connect(t);
    await c.connect();
    await c.set(`${details.key_prefix}greeting`, 'hello');
    await c.hset(`${details.key_prefix}h`, 'f', 'v');
    expect(await c.get(`${details.key_prefix}greeting`)).toBe('hello');
    await expect(c.set('unprefixed', 'x')).rejects.toThrow(/NOPERM/);
  });

  it("keeps tenant A out of tenant B's keys and channels", async () => {
    const a = await tenants.provisioned('a');
    const b = await tenants.provisioned('b');
    await admin.set(`${b.dbName}:secret`, 'b-data');
    const c = connect(a);
    await c.connect();
    await expect(c.get(`${b.dbName}:secret`)).rejects.toThrow(/NOPERM/);
    await expect(c.publish(`${b.dbName}:events`, 'x')).rejects.toThrow(/NOPERM/);
    // A's password does not open B's user either.
    const crossed = new Redis({
      host: '127.0.0.1',
      port: 6379,
      username: b.username,
      password: a.password,
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      disconnectTimeout: 50,
    });
    crossed.on('error', () => undefined);
    clients.push(crossed);
    await expect(crossed.connect()).rejects.toThrow();
  });

  it('denies commands that list, wipe or spy on the shared server', async () => {
    const t = await tenants.provisioned('deny');
    const c = connect(t);
    await c.connect();
    const p = `${t.dbName}:`;
    const denied: Array<[string, ...string[]]> = [
      ['KEYS', '*'],
      ['SCAN', '0'],
      ['RANDOMKEY'],
      ['DBSIZE'],
      ['FLUSHALL'],
      ['FLUSHDB'],
      ['SWAPDB', '0', '1'],
      ['SELECT', '1'],
      ['MOVE', `${p}k`, '1'],
      ['COPY', `${p}k`, `${p}k2`, 'DB', '1'],
      ['MIGRATE', 'h', '1', `${p}k`, '0', '1'],
      ['SORT', `${p}list`, 'BY', 'other:*'],
      ['EVAL', 'return 1', '0'],
      ['FUNCTION', 'LIST'],
      ['SCRIPT', 'FLUSH'],
      ['CONFIG', 'GET', '*'],
      ['DEBUG', 'SLEEP', '0'],
      ['MONITOR'],
      ['CLIENT', 'LIST'],
      ['CLIENT', 'KILL', 'ID', '1'],
      ['INFO'],
      ['SLOWLOG', 'GET'],
      ['MEMORY', 'STATS'],
      ['PUBSUB', 'CHANNELS'],
      ['ACL', 'LIST'],
      ['OBJECT', 'HELP'],
      ['RESTORE', `${p}r`, '0', 'x'],
      ['SHUTDOWN'],
      ['LATENCY', 'LATEST'],
      ['WAIT', '0', '0'],
    ];
    // RESET and AUTH cannot be denied; RESET falls back to the default user, which is why
    // production servers must disable it or give it a password (docs/managed-databases.md).
    // ACL DRYRUN asks the server's own ACL check without running anything on the shared server.
    for (const [cmd, ...args] of denied) {
      const verdict = String(await admin.call('ACL', 'DRYRUN', t.username, cmd, ...args).catch((e: Error) => e.message));
      expect(`${cmd}: ${verdict}`).toMatch(/no permissions/i);
    }
    for (const [cmd, ...args] of [['KEYS', '*'], ['SCAN', '0'], ['DBSIZE'], ['RANDOMKEY'], ['CLIENT', 'LIST']]) {
      await expect(c.call(cmd, ...args)).rejects.toThrow(/NOPERM/);
    }
    expect(String(await admin.call('ACL', 'DRYRUN', t.username, 'GET', `${p}k`))).toBe('OK');
    expect(String(await admin.call('ACL', 'DRYRUN', t.username, 'SORT', `${p}list`))).toMatch(/no permissions/);
    expect(await c.ping()).toBe('PONG');
    expect(await c.call('CLIENT', 'SETNAME', 'app')).toBe('OK');
  });

  it('restores a backup over changed data, keeping TTLs', async () => {
    const t = await tenants.provisioned('backup');
    const p = `${t.dbName}:`;
    const c = connect(t);
    await c.connect();
    await c.set(`${p}a`, '1');
    await c.set(`${p}ttl`, 'x', 'EX', 1000);
    await c.rpush(`${p}list`, 'x', 'y');
    await c.set(Buffer.from([...Buffer.from(p), 0xff, 0x00]), Buffer.from([1, 2, 3]));
    const artifact = await engine.backup(t, tenants.backupPath(`${t.dbName}.ndjson`));
    expect(artifact.sizeBytes).toBeGreaterThan(0);
    expect(artifact.sha256).toMatch(/^[0-9a-f]{64}$/);
    await c.set(`${p}a`, 'changed');
    await c.del(`${p}list`);
    await c.set(`${p}new`, 'made after the backup');
    await engine.restore(t, artifact.path);
    expect(await c.get(`${p}a`)).toBe('1');
    expect(await c.lrange(`${p}list`, 0, -1)).toEqual(['x', 'y']);
    expect(await c.exists(`${p}new`)).toBe(0);
    expect(await c.ttl(`${p}ttl`)).toBeGreaterThan(900);
    expect(await c.getBuffer(Buffer.from([...Buffer.from(p), 0xff, 0x00]))).toEqual(Buffer.from([1, 2, 3]));
  });

  it('counts the tenant keys, their memory and its connections', async () => {
    const t = await tenants.provisioned('metrics');
    const c = connect(t);
    await c.connect();
    const empty = await engine.metrics(t);
    expect(empty).toMatchObject({ keys: 0, storage_bytes: 0, connections: 1 });
    for (let i = 0; i < 20; i++) await c.set(`${t.dbName}:k${i}`, 'x'.repeat(1000));
    const full = await engine.metrics(t);
    expect(full.keys).toBe(20);
    expect(full.storage_bytes).toBeGreaterThan(20_000);
    const page = await engine.listKeys(t, '0', 100);
    expect(page.keys.length).toBeGreaterThan(0);
    expect(page.keys.every((k) => k.startsWith(`${t.dbName}:`))).toBe(true);
  });

  it("finds a tenant's keys on the first page and pages through all of them in a crowded keyspace", async () => {
    const crowd = await tenants.provisioned('crowd');
    const t = await tenants.provisioned('paged');
    const c = connect(t);
    await c.connect();
    // Another tenant's 3,000 keys fill SCAN's pages: a single SCAN call often matches none of t's.
    const crowdClient = connect(crowd);
    await crowdClient.connect();
    const pipeline = crowdClient.pipeline();
    for (let i = 0; i < 3000; i++) pipeline.set(`${crowd.dbName}:n${i}`, '1');
    await pipeline.exec();
    for (let i = 0; i < 12; i++) await c.set(`${t.dbName}:k${i}`, 'x');

    const first = await engine.listKeys(t, '0', 5);
    expect(first.keys.length).toBeGreaterThanOrEqual(5);
    const seen = new Set(first.keys);
    for (let cursor = first.next_cursor; cursor !== null;) {
      const page = await engine.listKeys(t, cursor, 5);
      page.keys.forEach((k) => seen.add(k));
      cursor = page.next_cursor;
    }
    expect([...seen].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `${t.dbName}:k${i}`).sort());
  });

  it('turns unhealthy when the ACL user is deleted behind its back', async () => {
    const t = await tenants.provisioned('health');
    expect((await engine.health(t)).status).toBe('healthy');
    await admin.call('ACL', 'DELUSER', t.username);
    const bad = await engine.health(t);
    expect(bad.status).toBe('unhealthy');
    expect(bad.checks[0]).toMatchObject({ name: 'connect', ok: false });
    expect(bad.checks[0].error).toMatch(/WRONGPASS|invalid username-password/i);
  });

  it('deprovision removes the user and every key of the prefix, and can run again', async () => {
    const t = await tenants.provisioned('drop');
    const c = connect(t);
    await c.connect();
    await c.set(`${t.dbName}:x`, '1');
    await engine.deprovision(t);
    await engine.deprovision(t);
    expect(await admin.call('ACL', 'GETUSER', t.username)).toBeNull();
    expect(await admin.exists(`${t.dbName}:x`)).toBe(0);
  });

  it('reports itself unavailable without an admin URL', async () => {
    const off = new RedisEngine({ publicHost: 'h', publicPort: 6379 });
    expect(off.isAvailable()).toBe(false);
    await expect(off.provision(aTenant('off'))).rejects.toThrow(/not configured/);
  });
});
