/**
 * Issue 38: the OpenID provider beside panva's `oidc-provider` (npm, a dev dependency) on PostgreSQL, in one run:
 * refresh, code exchange, UserInfo and introspection, each side in its own windows, interleaved (ABBA per scenario).
 *
 *   npx ts-node --transpile-only bench/oidc-peers.ts [--rounds=4] [--duration=5] [--warmup=2] [--connections=10]
 *                                                   [--tokens=12000] [--only=refresh,exchange,userinfo,introspect]
 *                                                   [--no-build] [--cpu-prof] [--no-save]
 *
 * The peer (bench/peers/oidc-provider-pg.mjs) runs in a child process on loopback, on a database of its own on the
 * same PostgreSQL, its storage the jsonb-table adapter of its documented interface; the service runs as
 * `npm run start:prod` does. Each side's figure is its server's CPU per request (user + system of its process tree,
 * /proc) and the CPU of the PostgreSQL backends serving its database, both per request; "× peer" is the peer's CPU
 * per request over ours (above 1: ours is cheaper) and our req/s over the peer's. Refresh tokens and codes are seeded
 * (each with a session or grant of its own, single use), so the endpoint alone is measured; UserInfo and
 * introspection reuse 20 access tokens each side obtained from its own token endpoint.
 *
 * --cpu-prof writes the service's V8 profiles to bench/results/profiles/oidc-peers-<time>/ (bench/profile-summary.ts).
 * Writes bench/results/oidc-peers.json and the "OpenID provider beside oidc-provider" block of BENCHMARKS.md.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type autocannon from 'autocannon';
import { Client } from 'pg';
import { accessTokens, formHeaders, OidcTenant, provisionOidc, REDIRECT_URI, seedOidcCredentials } from './lib/oidc-seed';
import { recreateDatabase } from './lib/postgres';
import { profileArgs } from './lib/processes';
import { treeCpuSeconds } from './lib/proc';
import { writeBlock } from './lib/report';
import { productionEnv, productionNodeFlags } from './lib/service';
import {
  acquireLock,
  BenchRequest,
  freePort,
  numberArg,
  percentile,
  run,
  RunFacts,
  runFacts,
  startServer,
  window,
  windowOptions,
} from './scim/harness';

const ROOT = resolve(__dirname, '..');
const OPTS = { ...windowOptions(), warmupSec: numberArg('warmup', 2), tokens: numberArg('tokens', 12_000) };
const CPU_PROF = process.argv.includes('--cpu-prof');
const SAVE = !process.argv.includes('--no-save') && !CPU_PROF;
const SCENARIOS = ['refresh', 'exchange', 'userinfo', 'introspect'] as const;
type ScenarioName = (typeof SCENARIOS)[number];
const ONLY = (process.argv
  .find((a) => a.startsWith('--only='))
  ?.split('=')[1]
  ?.split(',') ?? [...SCENARIOS]) as ScenarioName[];
const PEER_CLIENT = { id: 'bench-client', secret: 'bench-client-secret-bench-client-secret' };
const ACCESS_TOKENS = 20;
const log = (m: string) => console.log(`[bench:oidc-peers] ${m}`);

/** A server under load: its process tree's CPU and its database's backends' CPU. */
interface Server {
  name: string;
  baseUrl: string;
  database: string;
  pid: () => number;
}

interface SideWindow {
  ok: number;
  non2xx: number;
  durationSec: number;
  serverCpuSec: number;
  dbCpuSec: number;
  latencies: number[];
}

interface Figures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuMs: number;
  dbCpuMs: number;
  totalCpuMs: number;
  requests: number;
  non2xx: number;
}

/** PIDs of the PostgreSQL backends connected to `database` now (the pools keep theirs open through a window). */
async function backendPids(admin: Client, database: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
    database,
  ]);
  return rows.map((r) => r.pid);
}

async function measure(admin: Client, server: Server, requests: BenchRequest[], durationSec: number): Promise<SideWindow> {
  // Backends are read at both ends: one opened during the window counts whole, one closed during it is lost (not negative).
  const before = new Map((await backendPids(admin, server.database)).map((pid) => [pid, treeCpuSeconds(pid)]));
  const server0 = treeCpuSeconds(server.pid());
  const w = await window({ baseUrl: server.baseUrl, requests, cpuSeconds: () => 0 }, OPTS.connections, durationSec);
  const serverCpuSec = treeCpuSeconds(server.pid()) - server0;
  const after = await backendPids(admin, server.database);
  const dbCpuSec = after.reduce((sum, pid) => sum + Math.max(0, treeCpuSeconds(pid) - (before.get(pid) ?? 0)), 0);
  return { ok: w.ok, non2xx: w.non2xx, durationSec: w.durationSec, serverCpuSec, dbCpuSec, latencies: w.latencies };
}

function figures(windows: SideWindow[]): Figures {
  const ok = windows.reduce((a, w) => a + w.ok, 0);
  const non2xx = windows.reduce((a, w) => a + w.non2xx, 0);
  const sec = windows.reduce((a, w) => a + w.durationSec, 0);
  const per = (s: number) => Math.round(((s * 1000) / Math.max(1, ok + non2xx)) * 1000) / 1000;
  const server = per(windows.reduce((a, w) => a + w.serverCpuSec, 0));
  const db = per(windows.reduce((a, w) => a + w.dbCpuSec, 0));
  const sorted = Float64Array.from(windows.flatMap((w) => w.latencies)).sort();
  return {
    requestsPerSec: Math.round((ok / sec) * 10) / 10,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    serverCpuMs: server,
    dbCpuMs: db,
    totalCpuMs: Math.round((server + db) * 1000) / 1000,
    requests: ok + non2xx,
    non2xx,
  };
}

/** autocannon requests that each take the next single-use value from `values` (a refresh token, a code). */
function consuming(path: string, headers: Record<string, string>, values: string[], body: (value: string) => Record<string, string>) {
  let next = 0;
  const request: BenchRequest = {
    method: 'POST',
    path,
    headers,
    setupRequest: (req: autocannon.Request) => {
      if (next >= values.length) throw new Error(`ran out of seeded values for ${path}: raise --tokens`);
      return { ...req, body: new URLSearchParams(body(values[next++])).toString() };
    },
  };
  return { request, used: () => next };
}

/** Round-robin over reusable access tokens (autocannon cycles through its requests). */
const rotating = (make: (token: string) => BenchRequest, tokens: string[]): BenchRequest[] => tokens.map(make);

async function seedPeer(baseUrl: string, kind: 'refresh' | 'codes' | 'access', n: number, challenge = ''): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i += 2000) {
    const res = await fetch(`${baseUrl}/__seed/${kind}?n=${Math.min(2000, n - i)}&challenge=${challenge}`, { method: 'POST' });
    if (!res.ok) throw new Error(`seeding the peer's ${kind} answered ${res.status}: ${await res.text()}`);
    out.push(...((await res.json()) as string[]));
  }
  return out;
}

async function main(): Promise<void> {
  await acquireLock(log);
  if (!process.argv.includes('--no-build')) {
    log('building the service');
    await run(process.execPath, [join(ROOT, 'node_modules/@nestjs/cli/bin/nest.js'), 'build'], ROOT);
  }
  const oursDb = 'identity_bench_oidc_peers';
  const peerDb = 'identity_bench_oidc_provider_peer';
  const oursUrl = await recreateDatabase(oursDb);
  const peerUrl = await recreateDatabase(peerDb);
  const [port, peerPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const peerBase = `http://127.0.0.1:${peerPort}`;
  const service = await startServer(
    [...productionNodeFlags(ROOT), ...profileArgs(ROOT, 'oidc-peers', CPU_PROF), join(ROOT, 'dist/main.js')],
    { ...productionEnv(port), DATABASE_URL: oursUrl, REDIS_KEY_PREFIX: `bench-oidc-peers-${process.pid}:` },
    ROOT,
    `${baseUrl}/health/ready`,
    join(ROOT, 'bench/results/logs/oidc-peers-service.log'),
  );
  const peer = await startServer(
    [join(ROOT, 'bench/peers/oidc-provider-pg.mjs')],
    { NODE_ENV: 'production', PORT: String(peerPort), DATABASE_URL: peerUrl, ISSUER: peerBase },
    ROOT,
    `${peerBase}/__ready`,
    join(ROOT, 'bench/results/logs/oidc-peers-provider.log'),
  );
  const db = new Client({ connectionString: oursUrl });
  const admin = new Client({ connectionString: oursUrl });
  await db.connect();
  await admin.connect();
  try {
    const ours: Server = { name: 'ours', baseUrl, database: oursDb, pid: service.pid };
    const theirs: Server = { name: 'oidc-provider', baseUrl: peerBase, database: peerDb, pid: peer.pid };
    const tenant: OidcTenant = await provisionOidc(baseUrl, db);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    log(`seeding ${OPTS.tokens} refresh tokens and codes on each side`);
    const seeded = await seedOidcCredentials(db, tenant, OPTS.tokens, challenge);
    const peerSeeded = {
      refresh: ONLY.includes('refresh') ? await seedPeer(peerBase, 'refresh', OPTS.tokens) : [],
      codes: ONLY.includes('exchange') ? await seedPeer(peerBase, 'codes', OPTS.tokens, challenge) : [],
      access: await seedPeer(peerBase, 'access', ACCESS_TOKENS),
    };
    await db.query('VACUUM (ANALYZE)');
    const ourAuth = formHeaders(tenant.clientId, tenant.clientSecret);
    const peerAuth = formHeaders(PEER_CLIENT.id, PEER_CLIENT.secret);
    // Our access tokens: from our own token endpoint (the last seeded codes, kept out of the exchange windows).
    const ourAccess = await accessTokens(baseUrl, tenant, seeded.codes.splice(-ACCESS_TOKENS), verifier);

    const sides: Record<ScenarioName, [BenchRequest[], BenchRequest[]]> = {
      refresh: [
        [consuming('/oauth/token', ourAuth, seeded.refresh, (rt) => ({ grant_type: 'refresh_token', refresh_token: rt })).request],
        [consuming('/token', peerAuth, peerSeeded.refresh, (rt) => ({ grant_type: 'refresh_token', refresh_token: rt })).request],
      ],
      exchange: [
        [
          consuming('/oauth/token', ourAuth, seeded.codes, (code) => ({
            grant_type: 'authorization_code',
            code,
            redirect_uri: REDIRECT_URI,
            code_verifier: verifier,
          })).request,
        ],
        [
          consuming('/token', peerAuth, peerSeeded.codes, (code) => ({
            grant_type: 'authorization_code',
            code,
            redirect_uri: REDIRECT_URI,
            code_verifier: verifier,
          })).request,
        ],
      ],
      userinfo: [
        rotating((token) => ({ path: '/oauth/userinfo', headers: { authorization: `Bearer ${token}` } }), ourAccess),
        rotating((token) => ({ path: '/me', headers: { authorization: `Bearer ${token}` } }), peerSeeded.access),
      ],
      introspect: [
        rotating((token) => ({ method: 'POST', path: '/oauth/introspect', headers: ourAuth, body: `token=${token}` }), ourAccess),
        rotating(
          (token) => ({ method: 'POST', path: '/token/introspection', headers: peerAuth, body: `token=${token}` }),
          peerSeeded.access,
        ),
      ],
    };
    // One request each, checked: a side that answers errors measures nothing.
    for (const name of ONLY) {
      for (const [i, server] of [ours, theirs].entries()) {
        const w = await measure(admin, server, sides[name][i], OPTS.warmupSec);
        if (w.non2xx > 0 || w.ok === 0) throw new Error(`${server.name} ${name}: ${w.non2xx} non-2xx of ${w.ok + w.non2xx} in the warm-up`);
      }
    }
    const windows = Object.fromEntries(ONLY.map((n) => [n, [[], []] as [SideWindow[], SideWindow[]]])) as Record<
      ScenarioName,
      [SideWindow[], SideWindow[]]
    >;
    for (let r = 0; r < OPTS.rounds; r++) {
      for (const name of ONLY) {
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const w = await measure(admin, i === 0 ? ours : theirs, sides[name][i], OPTS.durationSec);
          if (w.non2xx > 0) log(`${[ours, theirs][i].name} ${name}: ${w.non2xx} non-2xx of ${w.ok + w.non2xx}`);
          windows[name][i].push(w);
        }
      }
      log(`round ${r + 1} of ${OPTS.rounds} done`);
    }
    const results = ONLY.map((name) => {
      const [a, b] = [figures(windows[name][0]), figures(windows[name][1])];
      const cpuRatio = Math.round((b.totalCpuMs / a.totalCpuMs) * 100) / 100;
      const rateRatio = Math.round((a.requestsPerSec / b.requestsPerSec) * 100) / 100;
      const rounds = windows[name][0].map((w, i) => {
        const p = windows[name][1][i];
        const cpu = (x: SideWindow) => (x.serverCpuSec + x.dbCpuSec) / Math.max(1, x.ok + x.non2xx);
        return Math.round((cpu(p) / cpu(w)) * 100) / 100;
      });
      log(
        `${name}: ours ${a.requestsPerSec} req/s, ${a.serverCpuMs} + ${a.dbCpuMs} ms CPU (server + PostgreSQL); oidc-provider ` +
          `${b.requestsPerSec} req/s, ${b.serverCpuMs} + ${b.dbCpuMs} ms; × peer: CPU ${cpuRatio} (rounds ${rounds.join(', ')}), req/s ${rateRatio}`,
      );
      return { scenario: name, ours: a, peer: b, cpuRatio, cpuRatioRounds: rounds, rateRatio };
    });
    if (!SAVE) return;
    const report = { area: 'oidc-peers', ...runFacts('bench/oidc-peers.ts'), options: OPTS, results };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/oidc-peers.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeBlock(join(ROOT, 'BENCHMARKS.md'), START, END, render(report));
    log('wrote bench/results/oidc-peers.json and its block of BENCHMARKS.md');
  } finally {
    await db.end();
    await admin.end();
    await service.stop();
    await peer.stop();
  }
}

const START = '<!-- oidc-peers:start (generated by bench/oidc-peers.ts) -->';
const END = '<!-- oidc-peers:end -->';

const TITLES: Record<ScenarioName, [string, string]> = {
  refresh: ['`POST /oauth/token` refresh_token (rotated)', '`POST /token` refresh_token (rotated)'],
  exchange: ['`POST /oauth/token` authorization_code + PKCE', '`POST /token` authorization_code + PKCE'],
  userinfo: ['`GET /oauth/userinfo`', '`GET /me`'],
  introspect: ['`POST /oauth/introspect` (access token)', '`POST /token/introspection` (access token)'],
};

function render(
  r: RunFacts & {
    options: typeof OPTS;
    results: { scenario: ScenarioName; ours: Figures; peer: Figures; cpuRatio: number; cpuRatioRounds: number[]; rateRatio: number }[];
  },
): string {
  const row = (side: string, f: Figures) =>
    `| ${side} | ${f.requestsPerSec} | ${f.p50Ms} | ${f.p99Ms} | ${f.serverCpuMs} | ${f.dbCpuMs} | ${f.totalCpuMs} | ${f.non2xx} |`;
  return [
    `Run ${r.ranAt} on ${r.machine.cpus} × ${r.machine.model ?? 'cpu'} (load ${r.machine.loadAverage.join(' / ')}), \`${r.command}\`: ` +
      `${r.options.rounds} rounds of ${r.options.durationSec} s per side and scenario, ${r.options.connections} connections, ABBA.`,
    '',
    '| Side | req/s | p50 ms | p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | total CPU ms/req | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...r.results.flatMap((x) => [row(`ours: ${TITLES[x.scenario][0]}`, x.ours), row(`oidc-provider: ${TITLES[x.scenario][1]}`, x.peer)]),
    '',
    ...r.results.map(
      (x) =>
        `- **${x.scenario}**: oidc-provider's CPU per request / ours = **${x.cpuRatio}×** (rounds ${x.cpuRatioRounds.join(', ')}); ` +
        `our req/s / theirs = ${x.rateRatio}×.`,
    ),
  ].join('\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
