/**
 * The first step past one machine, measured: SCIM reads, lookups, creates and sign-ins through
 * PgBouncer in transaction mode (DATABASE_POOLER=transaction) with one and with two service
 * instances, beside one instance connected directly, all in one run and in alternating windows
 * (direct, direct with unnamed statements, pooled ×1, pooled ×2, then again in a rotated order)
 * so the shared machine's drift hits all four alike.
 *
 *   npx ts-node --transpile-only bench/pgbouncer.ts [--rounds=3] [--duration=5] [--warmup=2] [--connections=10] [--users=20000] [--only=scim-user-get,sign-in] [--no-build]
 *
 * Needs the local PostgreSQL and Redis and Debian's pgbouncer (/usr/sbin/pgbouncer, or PGBOUNCER_BIN).
 * Every instance gets DATABASE_POOL_SIZE=10; the pooler keeps 10 server connections for the
 * database, so the pooled runs use as many PostgreSQL backends as the direct one. The pooled
 * instances have DATABASE_DIRECT_URL (credential cache on, as in the direct run). With two
 * instances the connections are split between them (as a load balancer would); CPU per request
 * sums both instances, and the pooler's is reported apart. Writes bench/results/pgbouncer.json and the
 * "PgBouncer" section of BENCHMARKS.md.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeBlock } from './lib/report';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { PGBOUNCER_BIN, PgBouncer, startPgBouncer } from '../test/support/pgbouncer';
import { ApiClient } from './lib/api-client';
import { ADMIN_URL, recreateDatabase } from './lib/postgres';
import { createDeveloper, createWorkspace, productionEnv, productionNodeFlags, throwawaySecrets } from './lib/service';
import { newUserBody } from './scenarios/scim';
import { acquireLock, BenchRequest, freePort, Measurement, probe, run, Side, startServer, summarize, window, Window } from './scim/harness';
import { treeCpuSeconds } from './lib/proc';

const ROOT = resolve(__dirname, '..');
const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const OPTS = {
  durationSec: arg('duration', 5),
  warmupSec: arg('warmup', 2),
  connections: arg('connections', 10),
  rounds: arg('rounds', 3),
  users: arg('users', 20_000),
};
const SAMPLE = 100;
const SIGN_IN_USERS = 20;
const POOL_SIZE = 10;
const log = (m: string) => console.log(`[bench:pgbouncer] ${m}`);

type Setup = 'direct' | 'unnamed' | 'pooled1' | 'pooled2';
const SETUPS: { name: Setup; title: string; pooled: boolean }[] = [
  { name: 'direct', title: 'one instance, direct', pooled: false },
  // Separates the two costs of the pooled setups: unnamed statements, and the pooler's hop.
  { name: 'unnamed', title: 'one instance, direct, statements unnamed', pooled: false },
  { name: 'pooled1', title: 'one instance, PgBouncer', pooled: true },
  { name: 'pooled2', title: 'two instances, one PgBouncer', pooled: true },
];

interface Instance {
  baseUrl: string;
  cpuSeconds: () => number;
  stop: () => Promise<void>;
}

function procCpuSeconds(pid: number): number {
  return treeCpuSeconds(pid);
}

async function main(): Promise<void> {
  await acquireLock(log);
  if (!process.argv.includes('--no-build')) {
    log('building the service');
    await run(process.execPath, [join(ROOT, 'node_modules/@nestjs/cli/bin/nest.js'), 'build'], ROOT);
  }
  const direct = await recreateDatabase('identity_bench_pgbouncer');
  const upstream = new URL(ADMIN_URL);
  const bouncer = await startPgBouncer(
    { host: upstream.hostname, port: Number(upstream.port || 5432), user: upstream.username },
    POOL_SIZE,
  );
  const pooled = bouncer.urlFor(direct);
  // The harness kills its servers on exit (Ctrl-C too); the pooler goes with them.
  const bouncerPid = bouncer.pid();
  let bouncerStopped = false;
  process.on('exit', () => {
    if (bouncerStopped) return;
    try {
      process.kill(bouncerPid, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  const instances: Instance[] = [];
  try {
    // The direct instance migrates the fresh database; the pooled ones find nothing to do.
    const d = await startInstance('direct', { DATABASE_URL: direct });
    instances.push(d);
    // DATABASE_POOLER=transaction on a direct connection: only the statements change (unnamed).
    // Its direct URL must differ from DATABASE_URL, which would otherwise count as the pooler's (cache off).
    const session = new URL(direct);
    session.searchParams.set('application_name', 'session');
    const u = await startInstance('unnamed', {
      DATABASE_URL: direct,
      DATABASE_POOLER: 'transaction',
      DATABASE_DIRECT_URL: session.toString(),
    });
    instances.push(u);
    const [p1, p2] = await Promise.all(
      ['pooled-1', 'pooled-2'].map((name) =>
        startInstance(name, { DATABASE_URL: pooled, DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: direct }),
      ),
    );
    instances.push(p1, p2);
    const servers: Record<Setup, Instance[]> = { direct: [d], unnamed: [u], pooled1: [p1], pooled2: [p1, p2] };

    const { token, clientId, workspaceId } = await provision(d.baseUrl);
    const db = new Client({ connectionString: direct });
    await db.connect();
    let sample: { id: string; email: string }[];
    let signIns: { email: string; password: string }[];
    try {
      sample = await seedUsers(db, workspaceId);
      signIns = await registerEndUsers(d.baseUrl, clientId);
    } finally {
      await db.end();
    }
    const scim = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
    const scenarios: { name: string; title: string; requests: BenchRequest[] }[] = [
      {
        name: 'scim-user-get',
        title: '`GET /scim/v2/Users/{id}`',
        requests: sample.map((u) => ({ path: `/scim/v2/Users/${u.id}`, headers: scim })),
      },
      {
        name: 'scim-user-filter',
        title: '`GET /scim/v2/Users?filter=userName eq "…"`',
        requests: sample.map((u) => ({ path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${u.email}"`)}`, headers: scim })),
      },
      {
        name: 'scim-user-create',
        title: '`POST /scim/v2/Users`',
        requests: [{ method: 'POST', path: '/scim/v2/Users', headers: scim, setupRequest: (req) => ({ ...req, body: newUserBody() }) }],
      },
      {
        name: 'sign-in',
        title: '`POST /e/v1/auth/login/` (argon2id)',
        requests: signIns.map((u) => ({
          method: 'POST',
          path: '/e/v1/auth/login/',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: clientId, email: u.email, password: u.password }),
        })),
      },
    ];

    const only = process.argv
      .find((a) => a.startsWith('--only='))
      ?.slice('--only='.length)
      .split(',');
    const results: Record<string, unknown>[] = [];
    for (const sc of scenarios.filter((x) => !only || only.includes(x.name))) {
      const sides = (setup: Setup): Side[] =>
        servers[setup].map((s) => ({ baseUrl: s.baseUrl, requests: sc.requests, cpuSeconds: s.cpuSeconds }));
      for (const s of SETUPS) {
        for (const side of sides(s.name)) await probe(side);
        await measureSetup(sides(s.name), OPTS.warmupSec, bouncer);
      }
      const windows: Record<Setup, Window[]> = { direct: [], unnamed: [], pooled1: [], pooled2: [] };
      const poolerCpu: Record<Setup, number> = { direct: 0, unnamed: 0, pooled1: 0, pooled2: 0 };
      for (let r = 0; r < OPTS.rounds; r++) {
        // The order rotates each round, so no setup always follows the same one.
        for (const s of [...SETUPS.slice(r % SETUPS.length), ...SETUPS.slice(0, r % SETUPS.length)]) {
          const w = await measureSetup(sides(s.name), OPTS.durationSec, bouncer);
          windows[s.name].push(w.window);
          if (s.pooled) poolerCpu[s.name] += w.poolerCpuSec;
        }
      }
      const m = Object.fromEntries(SETUPS.map((s) => [s.name, summarize(windows[s.name])])) as Record<Setup, Measurement>;
      const poolerMsPerRequest = Object.fromEntries(
        SETUPS.map((s) => [s.name, Math.round(((poolerCpu[s.name] * 1000) / Math.max(1, m[s.name].totalRequests)) * 1000) / 1000]),
      ) as Record<Setup, number>;
      for (const s of SETUPS) {
        log(`${sc.name} ${s.name}: ${fmt(m[s.name])}${!s.pooled ? '' : `, pooler ${poolerMsPerRequest[s.name]} ms CPU/req`}`);
      }
      results.push({ name: sc.name, title: sc.title, measurements: m, poolerCpuMsPerRequest: poolerMsPerRequest });
    }
    const report = {
      area: 'pgbouncer',
      ranAt: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, loadAverage: loadavg().map((l) => Math.round(l * 100) / 100) },
      options: { ...OPTS, poolSize: POOL_SIZE, pgbouncer: bouncerVersion(), serviceLogLevel: 'info' },
      scenarios: results,
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/pgbouncer.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeBenchmarksSection(report);
    log('wrote bench/results/pgbouncer.json and the PgBouncer section of BENCHMARKS.md');
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await bouncer.stop();
    bouncerStopped = true;
  }
}

/**
 * One window on a setup: every instance loaded at once with its share of the connections (a
 * load balancer's round robin); CPU summed over the instances, plus the pooler's CPU apart.
 */
async function measureSetup(sides: Side[], durationSec: number, bouncer: PgBouncer): Promise<{ window: Window; poolerCpuSec: number }> {
  const per = Math.max(1, Math.round(OPTS.connections / sides.length));
  const cpu0 = procCpuSeconds(bouncer.pid());
  const ws = await Promise.all(sides.map((side) => window(side, per, durationSec)));
  const poolerCpuSec = procCpuSeconds(bouncer.pid()) - cpu0;
  return {
    poolerCpuSec,
    window: {
      ok: ws.reduce((a, w) => a + w.ok, 0),
      non2xx: ws.reduce((a, w) => a + w.non2xx, 0),
      errors: ws.reduce((a, w) => a + w.errors, 0),
      durationSec: Math.max(...ws.map((w) => w.durationSec)),
      cpuSec: ws.reduce((a, w) => a + w.cpuSec, 0),
      latencies: ws.flatMap((w) => w.latencies),
    },
  };
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = await startServer(
    [...productionNodeFlags(ROOT), join(ROOT, 'dist/main.js')],
    { ...serviceEnv(port), ...env },
    ROOT,
    `${baseUrl}/health/ready`,
    join(ROOT, `bench/results/logs/pgbouncer-${name}.log`),
  );
  return { baseUrl, cpuSeconds: server.cpuSeconds, stop: server.stop };
}

// Both instances trust each other's tokens and sessions, as instances behind one load balancer do.
const SHARED_SECRETS = { ...throwawaySecrets(), REDIS_KEY_PREFIX: `bench-pgbouncer-${process.pid}:` };

function serviceEnv(port: number): Record<string, string> {
  return {
    ...productionEnv(port, SHARED_SECRETS),
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    RATE_LIMIT_AUTH_PER_MINUTE: '100000000',
    // Throughput runs drive one workspace flat out: a budget that never binds, still spent per request.
    TENANT_RATE_PER_SECOND: '1000000',
    TENANT_MAX_IN_FLIGHT: '0',
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000000',
    // Sign-in measures the pooled path, not the detectors' (they run after the answer anyway).
    ANOMALY_DETECTION_ENABLED: 'false',
  };
}

/** A developer, a workspace, an OAuth client and a SCIM token, through the real API. */
async function provision(baseUrl: string): Promise<{ token: string; clientId: string; workspaceId: string }> {
  const api = new ApiClient(baseUrl);
  const dev = await createDeveloper(api);
  const ws = await createWorkspace(api, dev, 'pgbouncer bench');
  const scim = await api.post<{ token: string }>('/developer/scim/tokens/', {
    body: { workspace_id: ws.id, label: 'bench' },
    headers: dev.authHeaders,
  });
  const client = await api.post<{ client_id: string }>('/developer/oauth/clients/', {
    body: { workspace_id: ws.id, name: 'App' },
    headers: dev.authHeaders,
  });
  return { token: scim.body.token, clientId: client.body.client_id, workspaceId: ws.id };
}

/** SCIM users (no OAuth client) in one workspace, seeded in SQL; a random sample to request. */
async function seedUsers(db: Client, workspaceId: string): Promise<{ id: string; email: string }[]> {
  log(`seeding ${OPTS.users} users`);
  await db.query(
    `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
     SELECT $1, 'user' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true,
            now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
       FROM generate_series(1, $2) g`,
    [workspaceId, OPTS.users],
  );
  await db.query('ANALYZE end_users');
  const { rows } = await db.query<{ id: string; email: string }>(
    `SELECT id, email FROM end_users WHERE workspace_id = $1 ORDER BY random() LIMIT $2`,
    [workspaceId, SAMPLE],
  );
  return rows;
}

/** End users of the OAuth client, registered through the API (their passwords hashed by the service). */
async function registerEndUsers(baseUrl: string, clientId: string): Promise<{ email: string; password: string }[]> {
  const users = Array.from({ length: SIGN_IN_USERS }, (_, i) => ({
    email: `signin-${i}-${randomUUID().slice(0, 6)}@bench.example`,
    password: `pw-${randomUUID()}`,
  }));
  const api = new ApiClient(baseUrl);
  for (const u of users) await api.post('/e/v1/auth/register/', { body: { client_id: clientId, ...u } });
  return users;
}

function bouncerVersion(): string {
  return execFileSync(PGBOUNCER_BIN, ['--version']).toString().split('\n')[0].trim();
}

function fmt(m: Measurement): string {
  return `${m.requestsPerSec} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ${m.cpuMsPerRequest} ms CPU/req, non-2xx ${m.non2xx}`;
}

const START = '<!-- pgbouncer:start (generated by bench/pgbouncer.ts) -->';
const END = '<!-- pgbouncer:end -->';

function writeBenchmarksSection(r: {
  ranAt: string;
  machine: { cpus: number; model?: string; loadAverage: number[] };
  options: Record<string, unknown>;
  scenarios: Record<string, unknown>[];
}): void {
  const rows = r.scenarios.flatMap((s) => {
    const m = s.measurements as Record<Setup, Measurement>;
    const pooler = s.poolerCpuMsPerRequest as Record<Setup, number>;
    return SETUPS.map((setup) => {
      const x = m[setup.name];
      const vs = setup.name === 'direct' ? '100%' : `**${Math.round((x.requestsPerSec / m.direct.requestsPerSec) * 100)}%**`;
      const poolerCpu = setup.pooled ? String(pooler[setup.name]) : '-';
      return `| ${s.title as string} | ${setup.title} | ${x.requestsPerSec} | ${vs} | ${x.p50Ms} | ${x.p99Ms} | ${x.cpuMsPerRequest} | ${poolerCpu} | ${x.non2xx} |`;
    });
  });
  const section = [
    '## PgBouncer (transaction mode) and two instances',
    '',
    `Run ${r.ranAt} on ${r.machine.cpus} cores (${r.machine.model ?? 'unknown CPU'}), load average at the end ${r.machine.loadAverage.join(' / ')}; the machine is shared with other sessions, so absolute figures are noisy and the ratios to the direct run, measured in alternating windows of the same run, are what to read.`,
    `One fresh database with ${String(r.options.users)} SCIM users; service built with \`nest build\`, \`NODE_ENV=production\`, \`LOG_LEVEL=info\`, \`DATABASE_POOL_SIZE=${String(r.options.poolSize)}\` per instance; ${String(r.options.pgbouncer)} (Debian) in transaction mode with ${String(r.options.poolSize)} server connections (as many PostgreSQL backends as the direct instance holds); pooled instances run \`DATABASE_POOLER=transaction\` (statements unnamed) with \`DATABASE_DIRECT_URL\` (credential cache on). autocannon, ${String(r.options.connections)} connections in all (split evenly between two instances), ${String(r.options.rounds)} rounds of ${String(r.options.durationSec)} s per setup, the four setups alternating in an order that rotates every round; "statements unnamed" is a direct instance with \`DATABASE_POOLER=transaction\` (no pooler), which separates what unnamed statements cost from what the pooler's hop costs. CPU ms/req is the service instances' (summed over both for two), from /proc; the pooler's own CPU per request is the next column.`,
    'Command: `npx ts-node --transpile-only bench/pgbouncer.ts` (results in `bench/results/pgbouncer.json`).',
    '',
    '| Scenario | setup | req/s | vs direct | p50 ms | p99 ms | service CPU ms/req | pooler CPU ms/req | non-2xx |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  writeBlock(join(ROOT, 'BENCHMARKS.md'), START, END, section);
}

/** `--report-only`: rewrite the BENCHMARKS.md section from bench/results/pgbouncer.json without measuring. */
if (process.argv.includes('--report-only')) {
  writeBenchmarksSection(
    JSON.parse(readFileSync(join(ROOT, 'bench/results/pgbouncer.json'), 'utf8')) as Parameters<typeof writeBenchmarksSection>[0],
  );
  process.exit(0);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
