/**
 * Managed-database benchmark: create-to-available time per engine, and latency of
 * the engine-backed reads (connection, metrics, health) beside a baseline
 * (GET /health/live) measured in the same run.
 *
 *   npx ts-node bench/managed-databases.ts            # postgres + redis (+ mongodb when MANAGED_MONGODB_ADMIN_URL is set)
 *   BENCH_CREATES=5 BENCH_SECONDS=5 npx ts-node bench/managed-databases.ts
 *
 * Loopback only. Boots the real app on a fresh Postgres database of its own and
 * drops everything it created at the end.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { generateAuditSigningKey } from '../src/config/dev-secrets';

const ADMIN_PG = process.env.MANAGED_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CREATES = Number(process.env.BENCH_CREATES ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const PORT = 39000 + Math.floor(Math.random() * 1000);
const BASE = `http://127.0.0.1:${PORT}`;
const APP_DB = `idsvc_bench_mdb_${process.pid}`;

async function admin(sql: string): Promise<void> {
  const c = new Client({ connectionString: ADMIN_PG });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(BASE + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

async function developerToken(): Promise<Record<string, string>> {
  const email = `bench-${randomUUID().slice(0, 8)}@example.test`;
  const password = `pw-${randomUUID()}`;
  await call('POST', '/developer/auth/signup/', { email, password, name: 'Bench' });
  const login = await call('POST', '/developer/auth/login/', { email, password });
  const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  const minted = await call('POST', '/developer/tokens/', { label: 'bench' }, { cookie, 'x-csrf-token': login.body.csrf_token });
  return { authorization: `Bearer ${minted.body.token}` };
}

async function createToAvailable(auth: Record<string, string>, ws: string, engine: string): Promise<{ ms: number; id: string }> {
  const start = performance.now();
  const created = await call('POST', `/e/v1/developer/workspaces/${ws}/databases/`, { display_name: `bench ${engine}`, engine }, auth);
  if (created.status !== 201) throw new Error(`create ${engine}: ${created.status} ${JSON.stringify(created.body)}`);
  for (;;) {
    const r = await call('GET', `/e/v1/developer/databases/${created.body.id}/`, undefined, auth);
    if (r.body.status === 'available') return { ms: performance.now() - start, id: created.body.id };
    if (r.body.status === 'failed') throw new Error(`provisioning failed: ${r.body.error}`);
    await new Promise((res) => setTimeout(res, 10));
  }
}

async function load(path: string, auth: Record<string, string>) {
  const result = await autocannon({ url: BASE + path, headers: auth, connections: CONNECTIONS, duration: SECONDS });
  return {
    path: path.replace(/[0-9a-f-]{36}/, '{id}'),
    requests_per_sec: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
  };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const pick = (q: number) => Math.round(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]);
  return { runs: s.length, min_ms: Math.round(s[0]), median_ms: pick(0.5), max_ms: Math.round(s[s.length - 1]) };
};

async function main(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS "${APP_DB}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${APP_DB}"`);
  const appUrl = new URL(ADMIN_PG);
  appUrl.pathname = `/${APP_DB}`;
  Object.assign(process.env, {
    NODE_ENV: 'test',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: appUrl.toString(),
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'idsvc-bench-')),
    AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
    SECRETS_ENCRYPTION_KEY: `bench:${randomBytes(32).toString('base64')}`,
    // Production refuses to start without an audit checkpoint signing key.
    AUDIT_SIGNING_KEYS: generateAuditSigningKey('bench'),
    JOBS_POLL_INTERVAL_MS: '50',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    // Throughput runs drive one workspace flat out: a budget that never binds, still spent per request.
    TENANT_RATE_PER_SECOND: '1000000',
    TENANT_MAX_IN_FLIGHT: '0',
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000',
    MANAGED_POSTGRES_ADMIN_URL: ADMIN_PG,
    MANAGED_POSTGRES_PUBLIC_HOST: '127.0.0.1',
    MANAGED_POSTGRES_PUBLIC_PORT: '5432',
    MANAGED_POSTGRES_SSL_MODE: 'disable',
    MANAGED_REDIS_ADMIN_URL: process.env.MANAGED_REDIS_ADMIN_URL ?? 'redis://127.0.0.1:6379',
    MANAGED_REDIS_PUBLIC_HOST: '127.0.0.1',
  });
  const { createApp } = await import('../src/app.factory');
  const app = await createApp();
  await app.listen(PORT, '127.0.0.1');
  const engines = ['postgres', 'redis', ...(process.env.MANAGED_MONGODB_ADMIN_URL ? ['mongodb'] : [])];
  const created: string[] = [];
  const auth = await developerToken();
  try {
    const ws = (await call('POST', '/e/v1/developer/workspaces/', { name: 'bench' }, auth)).body.id as string;
    const provisioning: Record<string, ReturnType<typeof stats>> = {};
    const reads: Record<string, unknown[]> = {};
    const baseline = await load('/health/live', {});
    for (const engine of engines) {
      const times: number[] = [];
      for (let i = 0; i < CREATES; i++) {
        const { ms, id } = await createToAvailable(auth, ws, engine);
        times.push(ms);
        created.push(id);
      }
      provisioning[engine] = stats(times);
      const id = created[created.length - 1];
      reads[engine] = [];
      for (const sub of ['connection', 'metrics', 'health']) {
        reads[engine].push(await load(`/e/v1/developer/databases/${id}/${sub}/`, auth));
      }
    }
    const results = {
      measured_at: new Date().toISOString(),
      machine: 'shared 2-core dev VM, Postgres 15 and Redis 7 on loopback',
      settings: { creates_per_engine: CREATES, seconds_per_read_run: SECONDS, connections: CONNECTIONS },
      baseline_health_live: baseline,
      create_to_available: provisioning,
      reads,
    };
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'managed-databases.json'), JSON.stringify(results, null, 2) + '\n');
    console.log(JSON.stringify(results, null, 2));
  } finally {
    for (const id of created) await call('DELETE', `/e/v1/developer/databases/${id}/`, undefined, auth);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const left = await Promise.all(created.map((id) => call('GET', `/e/v1/developer/databases/${id}/`, undefined, auth)));
      if (left.every((r) => r.status === 404)) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    await app.close();
    await admin(`DROP DATABASE IF EXISTS "${APP_DB}" WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
