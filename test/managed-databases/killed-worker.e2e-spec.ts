import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, type TestApp } from '../support/app';
import { type AppProcess, spawnApp } from '../support/app-process';
import { deleteAll, managedEnv, untilStatus } from './support';

const ADMIN_URL = managedEnv().MANAGED_POSTGRES_ADMIN_URL;

/**
 * A TCP relay in front of the real Postgres that forwards everything until the
 * admin sends `CREATE DATABASE`, then swallows it: the provisioning step after
 * CREATE ROLE hangs, which is where we kill the process.
 */
async function stallingRelay(trigger: string): Promise<{ url: string; stalled: Promise<void>; close(): Promise<void> }> {
  const target = new URL(ADMIN_URL);
  const sockets = new Set<Socket>();
  let tripped = false;
  let notify!: () => void;
  const stalled = new Promise<void>((resolve) => (notify = resolve));
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => {
      if (tripped) return;
      if (chunk.includes(trigger)) {
        tripped = true;
        notify();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(ADMIN_URL);
  relayed.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: relayed.toString(),
    stalled,
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('worker killed during provisioning', () => {
  let crashed: AppProcess | undefined;
  let survivor: TestApp | undefined;

  afterAll(async () => {
    await crashed?.stop('SIGKILL');
    if (survivor) await deleteAll(survivor);
    await survivor?.close();
  });

  it('finishes the database on the next instance once the dead worker’s lease runs out', async () => {
    const shared = {
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      JOBS_LEASE_MS: '2000',
    };
    const relay = await stallingRelay('CREATE DATABASE');
    crashed = await spawnApp(managedEnv({ ...shared, MANAGED_POSTGRES_ADMIN_URL: relay.url, LOG_LEVEL: 'warn' }));
    const http = request(crashed.baseUrl);
    const email = `dev-${randomUUID().slice(0, 8)}@example.test`;
    await http.post('/developer/auth/signup/').send({ email, password: 'password-123', name: 'D' }).expect(201);
    const login = await http.post('/developer/auth/login/').send({ email, password: 'password-123' }).expect(200);
    const cookie = ([] as string[])
      .concat(login.headers['set-cookie'])
      .map((c) => c.split(';')[0])
      .join('; ');
    const minted = await http
      .post('/developer/tokens/')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', login.body.csrf_token)
      .send({ label: 't' });
    const auth = { Authorization: `Bearer ${minted.body.token}` };
    const ws = (await http.post('/e/v1/developer/workspaces/').set(auth).send({ name: 'crash' }).expect(201)).body as { id: string };
    const created = (
      await http
        .post(`/e/v1/developer/workspaces/${ws.id}/databases/`)
        .set(auth)
        .send({ display_name: 'Crash', engine: 'postgres' })
        .expect(201)
    ).body as { id: string; db_name: string };

    await relay.stalled; // the role exists, CREATE DATABASE is in flight
    await crashed.stop('SIGKILL');
    await relay.close();
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    const username = `u_${created.db_name}`;
    const midway = {
      role: (await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [username])).rowCount,
      db: (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [created.db_name])).rowCount,
    };
    expect(midway).toEqual({ role: 1, db: 0 });

    survivor = await createTestApp(managedEnv(shared));
    const dev = { id: '', email, password: 'password-123', token: '', auth };
    await untilStatus(survivor, dev, created.id, 'available');
    const conn = (await survivor.http().get(`/e/v1/developer/databases/${created.id}/connection/`).set(auth).expect(200)).body;
    const tenant = new Client({ connectionString: conn.connection_string });
    await tenant.connect();
    await tenant.query('CREATE TABLE t (x int)');
    await tenant.end();
    const [job] = await survivor.dataSource.query(
      `SELECT status, attempts FROM jobs WHERE queue = 'managed-db.provision' AND payload->>'databaseId' = $1`,
      [created.id],
    );
    expect(job).toEqual({ status: 'completed', attempts: 2 });
    expect((await admin.query('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [created.db_name])).rows[0].n).toBe(1);
    await admin.end();
  }, 180000);
});
