/**
 * Issue 26: SCIM with an OAuth access token against SCIM with a static `scim_` token, in the same
 * run against one service process, and one group PATCH carrying 1,000 member additions and one
 * carrying 1,000 removals.
 *
 *   npx ts-node bench/scim-oauth.ts [--rounds=4] [--duration=5] [--warmup=3] [--connections=10] [--users=10000] [--no-build]
 *
 * The two sides alternate in short windows, in ABBA order (scim_, OAuth, OAuth, scim_, …), so a drift of
 * the machine's load hits both alike; the ratio compares the pooled windows. Writes
 * bench/results/scim-oauth.json and the "SCIM with OAuth access tokens" block of BENCHMARKS.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { ApiClient } from './lib/api-client';
import { recreateDatabase } from './lib/postgres';
import { writeBlock } from './lib/report';
import { createDeveloper, createWorkspace, productionEnv, productionNodeFlags } from './lib/service';
import {
  acquireLock,
  alternating,
  formatMeasurement,
  numberArg,
  windowOptions,
  freePort,
  Measurement,
  RunFacts,
  runFacts,
  probe,
  run,
  Side,
  startServer,
  summarize,
  window,
} from './scim/harness';

const ROOT = resolve(__dirname, '..');
const OPTS = windowOptions();
const USERS = numberArg('users', 10_000);
const PATCH_RUNS = 5;
const log = (m: string) => console.log(`[bench:scim-oauth] ${m}`);

async function main(): Promise<void> {
  await acquireLock(log);
  if (!process.argv.includes('--no-build')) {
    log('building the service');
    await run(process.execPath, [join(ROOT, 'node_modules/@nestjs/cli/bin/nest.js'), 'build'], ROOT);
  }
  const databaseUrl = await recreateDatabase('identity_bench_scim_oauth');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = await startServer(
    [...productionNodeFlags(ROOT), join(ROOT, 'dist/main.js')],
    { ...productionEnv(port), DATABASE_URL: databaseUrl, REDIS_KEY_PREFIX: `bench-scim-oauth-${process.pid}:` },
    ROOT,
    `${baseUrl}/health/ready`,
    join(ROOT, 'bench/results/logs/scim-oauth-service.log'),
  );
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const api = new ApiClient(baseUrl);
    const tenant = await provision(api);
    const sample = await seedUsers(db, tenant.workspaceId);
    const oauthToken = await accessToken(baseUrl, tenant.clientId, tenant.clientSecret);
    const side = (token: string): Side => ({
      baseUrl,
      cpuSeconds: service.cpuSeconds,
      requests: sample.map((u) => ({ path: `/scim/v2/Users/${u.id}`, headers: { authorization: `Bearer ${token}` } })),
    });
    const scimSide = side(tenant.scimToken);
    const oauthSide = side(oauthToken);
    for (const s of [scimSide, oauthSide]) {
      await probe(s);
      await window(s, OPTS.connections, OPTS.warmupSec);
    }
    const [scimWindows, oauthWindows] = await alternating(scimSide, oauthSide, OPTS);
    const scim = summarize(scimWindows);
    const oauth = summarize(oauthWindows);
    const ratio = Math.round((oauth.requestsPerSec / scim.requestsPerSec) * 1000) / 1000;
    const cpuRatio = Math.round((scim.cpuMsPerRequest / oauth.cpuMsPerRequest) * 1000) / 1000;
    log(`scim_ token: ${formatMeasurement(scim)}`);
    log(`OAuth token: ${formatMeasurement(oauth)}`);
    log(`throughput ratio OAuth / scim_ = ${ratio} (target ≥ 0.95), CPU ratio ${cpuRatio}`);

    const scimAuth = { authorization: `Bearer ${tenant.scimToken}`, 'content-type': 'application/scim+json' };
    const patches = await groupPatchTimes(api, scimAuth, db, tenant.workspaceId);
    log(`group PATCH adding 1,000 members: ${patches.add.join(', ')} ms; removing 1,000: ${patches.remove.join(', ')} ms`);

    const report = {
      area: 'scim-oauth',
      ...runFacts('bench/scim-oauth.ts'),
      options: { ...OPTS, users: USERS },
      scimToken: scim,
      oauthToken: oauth,
      ratio,
      cpuRatio,
      met: ratio >= 0.95 && oauth.non2xx === 0,
      groupPatch1000AddMs: patches.add,
      groupPatch1000RemoveMs: patches.remove,
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/scim-oauth.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeBlock(join(ROOT, 'BENCHMARKS.md'), START, END, render(report));
    log('wrote bench/results/scim-oauth.json and its block of BENCHMARKS.md');
  } finally {
    await db.end();
    await service.stop();
  }
}

/** A developer, a workspace, a SCIM token and a SCIM OAuth client, through the real API. */
async function provision(api: ApiClient) {
  const dev = await createDeveloper(api);
  const workspace = await createWorkspace(api, dev, 'scim oauth bench');
  const body = { workspace_id: workspace.id, label: 'bench' };
  const scim = await api.post<{ token: string }>('/developer/scim/tokens/', { body, headers: dev.authHeaders });
  const client = await api.post<{ client_id: string; secret: { value: string } }>('/developer/scim/clients/', {
    body,
    headers: dev.authHeaders,
  });
  return { workspaceId: workspace.id, scimToken: scim.body.token, clientId: client.body.client_id, clientSecret: client.body.secret.value };
}

async function accessToken(baseUrl: string, clientId: string, secret: string): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials&scope=scim',
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`token endpoint answered ${res.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

async function seedUsers(db: Client, workspaceId: string): Promise<{ id: string }[]> {
  log(`seeding ${USERS} users`);
  await db.query(
    `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
     SELECT $1, 'user' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true,
            now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
       FROM generate_series(1, $2) g`,
    [workspaceId, USERS],
  );
  await db.query('VACUUM (ANALYZE) end_users');
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM end_users WHERE workspace_id = $1 ORDER BY random() LIMIT 100`, [
    workspaceId,
  ]);
  return rows;
}

/** Wall time of a PATCH adding 1,000 members to a fresh group, then of one removing them all by value, PATCH_RUNS times. */
async function groupPatchTimes(api: ApiClient, auth: Record<string, string>, db: Client, workspaceId: string) {
  const add: number[] = [];
  const remove: number[] = [];
  const timed = async (body: unknown, groupId: string) => {
    const started = process.hrtime.bigint();
    await api.request('PATCH', `/scim/v2/Groups/${groupId}?excludedAttributes=members`, { body, headers: auth });
    return Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
  };
  const members = async (groupId: string) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM scim_group_members WHERE group_id = $1`, [groupId])).rows[0].n;
  for (let i = 0; i < PATCH_RUNS; i++) {
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM end_users WHERE workspace_id = $1 ORDER BY random() LIMIT 1000`, [
      workspaceId,
    ]);
    const value = rows.map((r) => ({ value: r.id }));
    const group = await api.post<{ id: string }>('/scim/v2/Groups', {
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `bench group ${i} ${randomUUID()}` },
      headers: auth,
    });
    const groupId = group.body.id;
    const patch = (op: string) => ({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op, path: 'members', value }],
    });
    add.push(await timed(patch('add'), groupId));
    if ((await members(groupId)) !== 1000) throw new Error('the add PATCH did not leave 1,000 members');
    remove.push(await timed(patch('remove'), groupId));
    if ((await members(groupId)) !== 0) throw new Error('the remove PATCH did not leave 0 members');
  }
  return { add, remove };
}

const START = '<!-- scim-oauth:start (generated by bench/scim-oauth.ts) -->';
const END = '<!-- scim-oauth:end -->';

function render(
  r: RunFacts & {
    scimToken: Measurement;
    oauthToken: Measurement;
    ratio: number;
    cpuRatio: number;
    met: boolean;
    groupPatch1000AddMs: number[];
    groupPatch1000RemoveMs: number[];
  },
): string {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const row = (name: string, m: Measurement) =>
    `| ${name} | ${m.requestsPerSec} | ${m.p50Ms} | ${m.p99Ms} | ${m.cpuMsPerRequest} | ${m.non2xx} |`;
  return [
    '## SCIM with OAuth access tokens (issue 26)',
    '',
    `Run ${r.ranAt} on ${r.machine.cpus} × ${r.machine.model ?? 'cpu'} (load ${r.machine.loadAverage.join(' / ')}), \`${r.command}\`.`,
    "`GET /scim/v2/Users/{id}` with a static `scim_` token and with a SCIM OAuth client's access token, alternating windows against one service (its default worker processes, CPU summed over them).",
    '',
    '| bearer | req/s | p50 ms | p99 ms | CPU ms/req | non-2xx |',
    '|---|---|---|---|---|---|',
    row('`scim_` token', r.scimToken),
    row('OAuth access token', r.oauthToken),
    '',
    `Throughput OAuth / \`scim_\`: **${Math.round(r.ratio * 1000) / 10} %** (target ≥ 95 %: ${r.met ? 'met' : 'missed'}); CPU per request ratio ${r.cpuRatio}.`,
    '',
    `One group PATCH with 1,000 member additions: ${r.groupPatch1000AddMs.join(', ')} ms (median ${median(r.groupPatch1000AddMs)} ms); with 1,000 removals: ${r.groupPatch1000RemoveMs.join(', ')} ms (median ${median(r.groupPatch1000RemoveMs)} ms); target ≤ 1,000 ms.`,
  ].join('\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
