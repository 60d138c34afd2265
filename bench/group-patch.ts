/**
 * One group PATCHed by 10 connections beside a create window in the same run (issue 38, item 5): a workspace of
 * 20,000 SCIM users seeded by SQL, one group holding half of them, and each PATCH adding or removing one member as
 * the identity providers send it, in turn: Okta's `add` on `members` and `remove` on `members[value eq "…"]`,
 * Entra's `Add` on `members` and its legacy `Remove` on `members` with a value array. Each round measures a window
 * of `POST /scim/v2/Users` (10 connections, the same workspace), then a window of the PATCHes, then both at once
 * (10 connections each, over the same seconds), on the built service with its default worker count, budgets at
 * 10^6/s as in every throughput run. Target: the PATCH's rate ≥ 40 % of the same window's create rate, its p99 ≤
 * 150 ms.
 *
 *   flock /tmp/r8-bench.lock npx ts-node --transpile-only bench/group-patch.ts [--rounds=3] [--duration=10] [--warmup=3]
 *     [--no-build] [--cpu-prof] [--explain] [--write]
 *
 * `--explain` prints the PATCH's statements under EXPLAIN ANALYZE at the end of the run (the group then holds what
 * the run left it); `--write` rewrites this bench's block of BENCHMARKS.md.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { ApiClient } from './lib/api-client';
import { measure } from './lib/load';
import { databaseSuffix, pool, recreateDatabase } from './lib/postgres';
import { backendCpuSeconds } from './lib/proc';
import { writeBlock } from './lib/report';
import { buildService, createDeveloper, createWorkspace, startService } from './lib/service';
import type { BenchRequest, Measurement } from './lib/types';
import { newUserBody } from './scenarios/scim';

const ROOT = join(__dirname, '..');
const USERS = 20_000;
const CONNECTIONS = 10;
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

function arg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

interface Seeded {
  headers: Record<string, string>;
  workspaceId: string;
  groupId: string;
  /** Members at the start (removed in turn), and users outside the group (added in turn). */
  inside: string[];
  outside: string[];
}

async function seed(api: ApiClient, db: Pool): Promise<Seeded> {
  const dev = await createDeveloper(api);
  const ws = await createWorkspace(api, dev, 'group patch');
  const minted = await api.post<{ token: string }>('/developer/scim/tokens/', {
    headers: dev.authHeaders,
    body: { workspace_id: ws.id, label: 'bench group patch' },
  });
  const headers = { authorization: `Bearer ${minted.body.token}`, 'content-type': 'application/scim+json' };
  await db.query(
    `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
     SELECT $1, 'user' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true, now() - (g || ' seconds')::interval, now()
       FROM generate_series(1, $2::int) g`,
    [ws.id, USERS],
  );
  const group = await api.post<{ id: string }>('/scim/v2/Groups', {
    headers,
    body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `Everyone ${randomUUID()}` },
  });
  await db.query(
    `INSERT INTO scim_group_members (group_id, user_id, workspace_id)
     SELECT $2, id, $1 FROM end_users WHERE workspace_id = $1 ORDER BY random() LIMIT $3`,
    [ws.id, group.body.id, USERS / 2],
  );
  await db.query('VACUUM (ANALYZE) end_users');
  await db.query('VACUUM (ANALYZE) scim_group_members');
  const { rows } = await db.query<{ id: string; member: boolean }>(
    `SELECT u.id, EXISTS (SELECT 1 FROM scim_group_members m WHERE m.group_id = $2 AND m.user_id = u.id) AS member
       FROM end_users u WHERE u.workspace_id = $1 ORDER BY random()`,
    [ws.id, group.body.id],
  );
  return {
    headers,
    workspaceId: ws.id,
    groupId: group.body.id,
    inside: rows.filter((r) => r.member).map((r) => r.id),
    outside: rows.filter((r) => !r.member).map((r) => r.id),
  };
}

/**
 * The PATCH bodies in turn: Okta add, Okta remove (value filter), Entra Add, Entra Remove (value array). Each add takes
 * a user outside the group and each remove a member; when either list runs out the two swap (by then every outsider
 * was added and every member removed).
 */
function patchBodies(s: Seeded): () => string {
  let turn = 0;
  let adds = 0;
  let removes = 0;
  return () => {
    const kind = turn++ % 4;
    if (kind % 2 === 0) {
      if (adds === s.outside.length) [s.inside, s.outside, adds, removes] = [s.outside, s.inside, 0, 0];
      const id = s.outside[adds++];
      const op = kind === 0 ? 'add' : 'Add';
      return JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op, path: 'members', value: [{ value: id }] }] });
    }
    if (removes === s.inside.length) [s.inside, s.outside, adds, removes] = [s.outside, s.inside, 0, 0];
    const id = s.inside[removes++];
    const operation =
      kind === 1 ? { op: 'remove', path: `members[value eq "${id}"]` } : { op: 'Remove', path: 'members', value: [{ value: id }] };
    return JSON.stringify({ schemas: [PATCH_OP], Operations: [operation] });
  };
}

interface Window extends Measurement {
  dbCpuMsPerRequest: number;
}

interface Round {
  create: Window;
  patch: Window;
  /** Both at once, 10 connections each, on the same service and workspace. */
  together: { create: Measurement; patch: Measurement };
  load: string;
}

/** The PATCH's statements at the end of the run, as the service sends them, under EXPLAIN ANALYZE (rolled back). */
async function explain(db: Pool, s: Seeded): Promise<string[]> {
  const client = await db.connect();
  const lines: string[] = [];
  const [outsider] = (
    await client.query<{ id: string }>(
      `SELECT id FROM end_users u WHERE workspace_id = $1 AND NOT EXISTS (SELECT 1 FROM scim_group_members m WHERE m.group_id = $2 AND m.user_id = u.id) LIMIT 1`,
      [s.workspaceId, s.groupId],
    )
  ).rows;
  const [member] = (
    await client.query<{ user_id: string }>(`SELECT user_id FROM scim_group_members WHERE group_id = $1 LIMIT 1`, [s.groupId])
  ).rows;
  const snapshot = readFileSync(join(ROOT, 'src/database/statements.snapshot.sql'), 'utf8');
  const named = (name: string) => {
    const at = snapshot.indexOf(`-- ${name}\n`);
    const text = snapshot.slice(at + name.length + 4);
    return text.slice(0, text.indexOf(';\n'));
  };
  const statements: [string, unknown[]][] = [
    [named('scim-groups.add-members'), [s.workspaceId, s.groupId, [outsider.id]]],
    [named('scim-groups.remove-members[by-ids]'), [s.workspaceId, s.groupId, [member.user_id]]],
    [
      named('directory-events.append-memberships'),
      [s.workspaceId, 'directory.group.user_added', [s.groupId], [outsider.id], ['x@bench.example']],
    ],
  ];
  try {
    for (const [sql, params] of statements) {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      await client.query('ROLLBACK');
      lines.push(sql.replace(/\s+/g, ' '), ...rows.map((r) => `  ${r['QUERY PLAN']}`));
    }
  } finally {
    client.release();
  }
  return lines;
}

async function main(): Promise<void> {
  const rounds = arg('rounds', 3);
  const durationSec = arg('duration', 10);
  const warmupSec = arg('warmup', 3);
  if (!flag('no-build')) await buildService(ROOT);
  const dbName = `bench_group_patch_${databaseSuffix(ROOT)}`;
  const dbUrl = await recreateDatabase(dbName);
  const db = pool(dbUrl);
  const { server, baseUrl } = await startService(ROOT, dbUrl, { LOG_LEVEL: 'warn' }, flag('cpu-prof'));
  const loadBefore = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  try {
    const s = await seed(new ApiClient(baseUrl), db);
    const creates: BenchRequest[] = [{ method: 'POST', path: '/scim/v2/Users', headers: s.headers, newBody: newUserBody }];
    const patches: BenchRequest[] = [
      { method: 'PATCH', path: `/scim/v2/Groups/${s.groupId}`, headers: s.headers, newBody: patchBodies(s) },
    ];
    const window = async (requests: BenchRequest[]): Promise<Window> => {
      const dbBefore = await backendCpuSeconds(dbName);
      // Backends are opened by the warm-up; a backend opened during the window is counted from its start.
      const m = await measure(server, baseUrl, requests, { connections: CONNECTIONS, durationSec, warmupSec });
      const dbCpu = (await backendCpuSeconds(dbName)) - dbBefore;
      return { ...m, dbCpuMsPerRequest: Math.round((dbCpu * 1e6) / Math.max(1, m.totalRequests)) / 1000 };
    };
    const results: Round[] = [];
    const opts = { connections: CONNECTIONS, durationSec, warmupSec };
    for (let i = 0; i < rounds; i++) {
      const create = await window(creates);
      const patch = await window(patches);
      // The two loads side by side: both warm up together, then both windows run over the same seconds.
      const [tc, tp] = await Promise.all([measure(server, baseUrl, creates, opts), measure(server, baseUrl, patches, opts)]);
      const load = loadavg()[0].toFixed(1);
      results.push({ create, patch, together: { create: tc, patch: tp }, load });
      process.stdout.write(
        `round ${i + 1}: alone: create ${create.requestsPerSec.toFixed(0)}/s p99 ${create.p99Ms} ms, ` +
          `PATCH ${patch.requestsPerSec.toFixed(0)}/s p99 ${patch.p99Ms} ms (non-2xx ${patch.non2xx}), ` +
          `${((100 * patch.requestsPerSec) / create.requestsPerSec).toFixed(0)} %; together: create ${tc.requestsPerSec.toFixed(0)}/s ` +
          `p99 ${tc.p99Ms} ms, PATCH ${tp.requestsPerSec.toFixed(0)}/s p99 ${tp.p99Ms} ms (non-2xx ${tp.non2xx}), ` +
          `${((100 * tp.requestsPerSec) / tc.requestsPerSec).toFixed(0)} %; load ${load}\n`,
      );
    }
    const members = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM scim_group_members WHERE group_id = $1', [s.groupId]))
      .rows[0].n;
    const plans = flag('explain') ? await explain(db, s) : [];
    const block = render(results, { rounds, durationSec, warmupSec, loadBefore, members });
    process.stdout.write(`\n${block}\n${plans.length ? `\n${plans.join('\n')}\n` : ''}`);
    if (flag('write')) writeBlock(join(ROOT, 'BENCHMARKS.md'), START, END, block);
  } finally {
    await db.end();
    await server.stop();
  }
}

const START = '<!-- group-patch:start (generated by bench/group-patch.ts) -->';
const END = '<!-- group-patch:end -->';

function render(
  results: Round[],
  o: { rounds: number; durationSec: number; warmupSec: number; loadBefore: string; members: number },
): string {
  const ratio = (r: Round) => r.patch.requestsPerSec / r.create.requestsPerSec;
  const ratioTogether = (r: Round) => r.together.patch.requestsPerSec / r.together.create.requestsPerSec;
  const medianBy = (f: (r: Round) => number) => [...results].sort((a, b) => f(a) - f(b))[Math.floor(results.length / 2)];
  const median = medianBy(ratio);
  const medianTogether = medianBy(ratioTogether);
  const p99s = (f: (r: Round) => number) => results.map(f).sort((a, b) => a - b)[Math.floor(results.length / 2)];
  const patchP99 = p99s((r) => r.patch.p99Ms);
  const togetherP99 = p99s((r) => r.together.patch.p99Ms);
  const met = (x: number, p99: number) => (x >= 0.4 && p99 <= 150 ? 'met' : 'not met');
  const rows = results.map(
    (r, i) =>
      `| ${i + 1} | ${r.create.requestsPerSec.toFixed(0)} | ${r.create.p99Ms} | ${r.create.cpuMsPerRequest} + ${r.create.dbCpuMsPerRequest} | ` +
      `${r.patch.requestsPerSec.toFixed(0)} | **${r.patch.p99Ms}** | ${r.patch.cpuMsPerRequest} + ${r.patch.dbCpuMsPerRequest} | ` +
      `**${(100 * ratio(r)).toFixed(0)} %** | ${r.together.create.requestsPerSec.toFixed(0)} | ${r.together.create.p99Ms} | ` +
      `${r.together.patch.requestsPerSec.toFixed(0)} | **${r.together.patch.p99Ms}** | **${(100 * ratioTogether(r)).toFixed(0)} %** | ` +
      `${r.patch.non2xx + r.together.patch.non2xx} | ${r.load} |`,
  );
  return [
    `## One group PATCHed beside creates (\`bench/group-patch.ts\`)`,
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with ` +
      `\`npx ts-node --transpile-only bench/group-patch.ts --rounds=${o.rounds} --duration=${o.durationSec} --warmup=${o.warmupSec}\`: ` +
      `a workspace of ${USERS.toLocaleString('en')} SCIM users, one group holding half of them; ${CONNECTIONS} connections each load, ` +
      `per round a create window, a PATCH window, and both loads at once (each after ${o.warmupSec} s of warm-up); every PATCH adds or removes one member ` +
      `as Okta (\`add\` members, \`remove\` \`members[value eq "…"]\`) and Entra (\`Add\` members, \`Remove\` members with a value) send it, ` +
      `answered 204. The built service with its default worker count, budgets at 10^6/s. Load average before: ${o.loadBefore}; ` +
      `the group held ${o.members.toLocaleString('en')} members after the run. CPU is ms per request, service + PostgreSQL backends (/proc).`,
    '',
    '| round | alone: create req/s | create p99 ms | create CPU ms | PATCH req/s | PATCH p99 ms | PATCH CPU ms | PATCH ÷ create | together: create req/s | create p99 ms | PATCH req/s | PATCH p99 ms | PATCH ÷ create | PATCH non-2xx | load 1 m |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Target: PATCH rate ≥ 40 % of the same round's create rate, PATCH p99 ≤ 150 ms. Medians of the rounds: alone ` +
      `${(100 * ratio(median)).toFixed(0)} %, p99 ${patchP99} ms (**${met(ratio(median), patchP99)}**); together ` +
      `${(100 * ratioTogether(medianTogether)).toFixed(0)} %, p99 ${togetherP99} ms (**${met(ratioTogether(medianTogether), togetherP99)}**).`,
  ].join('\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
