/**
 * Side-by-side A/B of two builds of the service: both run at once against one database and
 * are loaded at the same time, window after window, so CPU steal and background load hit
 * both alike. On a shared machine that is the only way to see a 10 % change: two windows a
 * few seconds apart on one build differ by more than that.
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npx nest build)
 *   npm run build
 *   npx ts-node --transpile-only bench/ab.ts --a=/tmp/before --b=. [--scenario=get|filter|create] [--rounds=10] [--duration=3]
 *
 * Each directory must hold a built service (dist/main.js) whose migrations match: both boot
 * on the same fresh database. Prints each round and the median ratios B/A of server CPU per
 * request and of requests per second.
 */
import { resolve } from 'node:path';
import { ApiClient } from './lib/api-client';
import { measure } from './lib/load';
import { pool, recreateDatabase } from './lib/postgres';
import { createDeveloper, createWorkspace, startService } from './lib/service';
import type { BenchRequest } from './lib/types';
import { newUserBody } from './scenarios/scim';

const USERS = 20_000;

interface Options {
  a: string;
  b: string;
  scenario: 'get' | 'filter' | 'create';
  rounds: number;
  durationSec: number;
}

function parseOptions(argv: string[]): Options {
  const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const scenario = arg('scenario') ?? 'get';
  if (!['get', 'filter', 'create'].includes(scenario)) throw new Error(`--scenario must be get, filter or create, not ${scenario}`);
  const b = arg('b');
  if (!b) throw new Error('usage: bench/ab.ts --a=<build dir> --b=<build dir> [--scenario=get|filter|create] [--rounds=10] [--duration=3]');
  return {
    a: resolve(arg('a') ?? '.'),
    b: resolve(b),
    scenario: scenario as Options['scenario'],
    rounds: Number(arg('rounds') ?? 10),
    durationSec: Number(arg('duration') ?? 3),
  };
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const url = await recreateDatabase('identity_bench_ab');
  const a = await startService(opts.a, url, {}, false);
  const b = await startService(opts.b, url, {}, false);
  const db = pool(url);
  try {
    const requests = await seed(new ApiClient(a.baseUrl), db, opts.scenario);
    const load = { durationSec: opts.durationSec, warmupSec: 0, connections: 10 };
    await Promise.all([
      measure(a.server, a.baseUrl, requests, { ...load, warmupSec: 4 }),
      measure(b.server, b.baseUrl, requests, { ...load, warmupSec: 4 }),
    ]);
    const cpu: number[] = [];
    const rps: number[] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      const [ma, mb] = await Promise.all([measure(a.server, a.baseUrl, requests, load), measure(b.server, b.baseUrl, requests, load)]);
      cpu.push(mb.cpuMsPerRequest / ma.cpuMsPerRequest);
      rps.push(mb.requestsPerSec / ma.requestsPerSec);
      console.log(
        `round ${round}: A ${Math.round(ma.requestsPerSec)} req/s, ${ma.cpuMsPerRequest} ms CPU/req | ` +
          `B ${Math.round(mb.requestsPerSec)} req/s, ${mb.cpuMsPerRequest} ms CPU/req`,
      );
    }
    console.log(`B/A server CPU per request: median ${median(cpu).toFixed(2)} (rounds ${cpu.map((r) => r.toFixed(2)).join(' ')})`);
    console.log(`B/A requests per second:    median ${median(rps).toFixed(2)} (rounds ${rps.map((r) => r.toFixed(2)).join(' ')})`);
  } finally {
    await db.end();
    await Promise.all([a.server.stop(), b.server.stop()]);
  }
}

/** A SCIM token and USERS users in a fresh workspace, then the requests of the chosen scenario. */
async function seed(api: ApiClient, db: import('pg').Pool, scenario: Options['scenario']): Promise<BenchRequest[]> {
  const dev = await createDeveloper(api);
  const ws = await createWorkspace(api, dev, 'ab');
  const minted = await api.post<{ token: string }>('/developer/scim/tokens/', {
    headers: dev.authHeaders,
    body: { workspace_id: ws.id, label: 'ab' },
  });
  await db.query(
    `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
     SELECT $1, 'user' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true, now() - (g || ' seconds')::interval, now()
       FROM generate_series(1, $2::int) g`,
    [ws.id, USERS],
  );
  await db.query('VACUUM (ANALYZE) end_users');
  const { rows } = await db.query<{ id: string; email: string }>(
    `SELECT id, email FROM end_users WHERE workspace_id = $1 ORDER BY random() LIMIT 100`,
    [ws.id],
  );
  const headers = { authorization: `Bearer ${minted.body.token}`, 'content-type': 'application/scim+json' };
  if (scenario === 'get') return rows.map((r) => ({ path: `/scim/v2/Users/${r.id}`, headers }));
  if (scenario === 'filter') {
    return rows.map((r) => ({ path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${r.email.toUpperCase()}"`)}`, headers }));
  }
  return [{ method: 'POST', path: '/scim/v2/Users', headers, newBody: newUserBody }];
}

function median(values: number[]): number {
  return [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
