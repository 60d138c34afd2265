/**
 * The directory event feed at 1,000,000 events (issue 37: "1M events in a workspace keep a feed page read ≤ 20 ms
 * p99"), beside the same page at 1,000 events measured in the same run.
 *
 *   npx nest build && npx ts-node --transpile-only bench/events-feed.ts [--events=1000000] [--small=1000]
 *     [--limit=100] [--rounds=6] [--duration=5] [--connections=2] [--no-save]
 *
 * Boots the built service (dist/main.js, production flags) on a fresh database and fills two workspaces by SQL in
 * bulk, in the sealer's format (numbered rows, seq 1..N, the user as SCIM GET shows it in `data`): `--small`
 * events in one, `--events` in the other. Then alternates windows of `GET /developer/events/?workspace_id=&after=
 * &limit=` (a random `after` over the whole feed each request, so deep and recent pages alike) on the small and
 * the large workspace, the order swapped every round, and reports each round and the medians. Beside the HTTP
 * figures, the page statement's own execution time in PostgreSQL (EXPLAIN ANALYZE, 200 random pages each).
 * A feed consumer reads one page at a time, so the default is 2 connections: the figure is a page read, not the
 * queue of 10 clients on 2 shared cores. Writes bench/results/events-feed.json and its block in BENCHMARKS.md.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from './lib/api-client';
import { measure } from './lib/load';
import { pool, recreateDatabase, serverVersion } from './lib/postgres';
import { createDeveloper, createWorkspace, startService } from './lib/service';
import type { Measurement } from './lib/types';
import { median, replaceBlock, writeResult } from './lib/events-report';

const ROOT = join(__dirname, '..');
const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => Number(argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

/**
 * `count` events numbered 1..count in the sealer's format: the user object as SCIM GET shows it, creations,
 * updates (with the attributes they changed), deactivations and reactivations, one per millisecond up to now.
 */
const SEED = `
  INSERT INTO directory_events (workspace_id, seq, type, resource_id, data, changed, occurred_at)
  SELECT $1::uuid, g,
         (ARRAY['directory.user.created', 'directory.user.updated', 'directory.user.updated', 'directory.user.deactivated',
                'directory.user.reactivated'])[1 + g % 5],
         u.id,
         jsonb_build_object(
           'schemas', jsonb_build_array('urn:ietf:params:scim:schemas:core:2.0:User'),
           'id', u.id, 'userName', 'user' || g || '@bench.example',
           'name', jsonb_build_object('givenName', 'Given' || g, 'familyName', 'Family' || g),
           'emails', jsonb_build_array(jsonb_build_object('value', 'user' || g || '@bench.example', 'type', 'work', 'primary', true)),
           'active', g % 5 <> 3,
           'meta', jsonb_build_object('resourceType', 'User',
             'created', to_char((now() - interval '30 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'lastModified', to_char((now() - (($2::int - g) || ' milliseconds')::interval) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'location', $3::text || u.id)),
         CASE g % 5 WHEN 0 THEN NULL WHEN 1 THEN ARRAY['name.givenName'] WHEN 2 THEN ARRAY['emails'] ELSE ARRAY['active'] END,
         now() - (($2::int - g) || ' milliseconds')::interval
    FROM generate_series(1, $2::int) g
   CROSS JOIN LATERAL (SELECT gen_random_uuid() AS id) u`;

interface Round {
  order: string;
  small: Measurement;
  large: Measurement;
  /** `GET /health/live` in the same round: the p99 of the cheapest request of the stack at this moment's load. */
  floor: Measurement;
}

async function main(): Promise<void> {
  const events = arg('events', 1_000_000);
  const small = arg('small', 1_000);
  const limit = arg('limit', 100);
  const rounds = arg('rounds', 6);
  const durationSec = arg('duration', 5);
  const connections = arg('connections', 2);
  const save = !argv.includes('--no-save') && !argv.includes('--cpu-prof');
  const startedAt = new Date().toISOString();

  const url = await recreateDatabase('identity_bench_events_feed');
  const cpuProf = argv.includes('--cpu-prof');
  const service = await startService(ROOT, url, { LOG_LEVEL: 'warn' }, cpuProf);
  const db = pool(url);
  try {
    const api = new ApiClient(service.baseUrl);
    const dev = await createDeveloper(api);
    const smallWs = await createWorkspace(api, dev, 'feed 1k');
    const largeWs = await createWorkspace(api, dev, 'feed 1M');
    const location = `${service.baseUrl}/scim/v2/Users/`;
    const t = Date.now();
    await db.query(SEED, [smallWs.id, small, location]);
    // In chunks of 100k, as a bulk import would: one statement of 1M rows holds a snapshot for minutes.
    for (let from = 0; from < events; from += 100_000) {
      const n = Math.min(100_000, events - from);
      await db.query(SEED.replace('SELECT $1::uuid, g,', `SELECT $1::uuid, g + ${from},`), [largeWs.id, n, location]);
    }
    await db.query('VACUUM ANALYZE directory_events');
    const seedSec = (Date.now() - t) / 1000;
    const size = (await db.query<{ size: string }>(`SELECT pg_size_pretty(pg_total_relation_size('directory_events')) AS size`)).rows[0]
      .size;
    console.log(`seeded ${small} + ${events} events in ${seedSec.toFixed(0)} s (directory_events with its indexes: ${size})`);

    const page = (wsId: string, count: number) => [
      {
        path: `/developer/events/?workspace_id=${wsId}&after=0&limit=${limit}`,
        newPath: () => `/developer/events/?workspace_id=${wsId}&after=${Math.floor(Math.random() * (count - limit))}&limit=${limit}`,
        headers: dev.authHeaders,
      },
    ];
    const smallRequests = page(smallWs.id, small);
    const largeRequests = page(largeWs.id, events);
    for (const [wsId, count] of [
      [smallWs.id, small],
      [largeWs.id, events],
    ] as const) {
      const res = await api.get<{ results: { seq: number }[]; next_after: number }>(
        `/developer/events/?workspace_id=${wsId}&after=${count - limit - 5}&limit=${limit}`,
        { headers: dev.authHeaders },
      );
      if (res.body.results.length !== limit || res.body.results[0].seq !== count - limit - 4) {
        throw new Error(`the seeded feed does not read back: ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    }

    // The page statement alone, in PostgreSQL (no HTTP, no Node): median and p99 of EXPLAIN ANALYZE's execution time.
    const sqlTimes = async (wsId: string, count: number) => {
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const after = Math.floor(Math.random() * (count - limit));
        const plan = await db.query<{ 'QUERY PLAN': { 'Execution Time': number }[] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) SELECT e.id, e.workspace_id, e.type, e.resource_id, e.data, e.changed, e.seq,
             to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at FROM directory_events e
            WHERE e.workspace_id = $1 AND e.seq > $2 AND ($4::text[] IS NULL OR e.type = ANY($4::text[])) ORDER BY e.seq LIMIT $3`,
          [wsId, after, limit, null],
        );
        times.push(plan.rows[0]['QUERY PLAN'][0]['Execution Time']);
      }
      times.sort((a, b) => a - b);
      return { p50: times[99], p99: times[197] };
    };
    const sqlSmall = await sqlTimes(smallWs.id, small);
    const sqlLarge = await sqlTimes(largeWs.id, events);
    console.log(
      `page statement in PostgreSQL: ${small} events p50 ${sqlSmall.p50} ms p99 ${sqlSmall.p99} ms; ${events} events p50 ${sqlLarge.p50} ms p99 ${sqlLarge.p99} ms`,
    );

    const load = { durationSec, warmupSec: 0, connections };
    await measure(service.server, service.baseUrl, smallRequests, { ...load, durationSec: 3 });
    await measure(service.server, service.baseUrl, largeRequests, { ...load, durationSec: 3 });
    const results: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      const largeFirst = r % 2 === 1;
      let s: Measurement;
      let l: Measurement;
      if (largeFirst) {
        l = await measure(service.server, service.baseUrl, largeRequests, load);
        s = await measure(service.server, service.baseUrl, smallRequests, load);
      } else {
        s = await measure(service.server, service.baseUrl, smallRequests, load);
        l = await measure(service.server, service.baseUrl, largeRequests, load);
      }
      const floor = await measure(service.server, service.baseUrl, [{ path: '/health/live' }], load);
      for (const m of [s, l]) if (m.non2xx || m.errors) throw new Error(`round ${r + 1}: ${m.non2xx} non-2xx, ${m.errors} errors`);
      results.push({ order: largeFirst ? '1M then 1k' : '1k then 1M', small: s, large: l, floor });
      console.log(
        `round ${r + 1} (${results[r].order}): 1k p50 ${s.p50Ms} p99 ${s.p99Ms} ms ${Math.round(s.requestsPerSec)} req/s | ` +
          `1M p50 ${l.p50Ms} p99 ${l.p99Ms} ms ${Math.round(l.requestsPerSec)} req/s | load ${l.loadAverage}`,
      );
    }

    const med = (pick: (r: Round) => number) => median(results.map(pick));
    const summary = {
      smallP50: med((r) => r.small.p50Ms),
      smallP99: med((r) => r.small.p99Ms),
      largeP50: med((r) => r.large.p50Ms),
      largeP99: med((r) => r.large.p99Ms),
      smallRps: med((r) => r.small.requestsPerSec),
      largeRps: med((r) => r.large.requestsPerSec),
      smallCpu: med((r) => r.small.cpuMsPerRequest),
      largeCpu: med((r) => r.large.cpuMsPerRequest),
      p99Ratio: med((r) => r.large.p99Ms / r.small.p99Ms),
      floorP50: med((r) => r.floor.p50Ms),
      floorP99: med((r) => r.floor.p99Ms),
    };
    console.log(JSON.stringify(summary));
    const command = `npx ts-node --transpile-only bench/events-feed.ts ${argv.filter((a) => a !== '--no-save').join(' ')}`.trim();
    const f = (v: number) => v.toFixed(2);
    const lines = [
      `Measured ${startedAt.slice(0, 16).replace('T', ' ')} UTC with \`${command}\` (Node ${process.versions.node}, PostgreSQL ${await serverVersion()}; load average at the end ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' / ')}, on 2 cores shared with other sessions' test runs).`,
      `Two workspaces seeded by SQL in the sealer's format: ${small.toLocaleString('en')} and ${events.toLocaleString('en')} events (table with its indexes: ${size}). Each request reads \`GET /developer/events/?workspace_id=&after=<random>&limit=${limit}\` with a random position over the whole feed; ${connections} connections, ${rounds} rounds of ${durationSec} s windows on each workspace, the order swapped every round; medians of the rounds.`,
      '',
      `| Feed page (${limit} events) | 1,000 events (baseline, same run) | ${events.toLocaleString('en')} events | × baseline | target |`,
      '|---|---:|---:|---:|---|',
      `| p99 ms (median of ${rounds} rounds) | ${f(summary.smallP99)} | **${f(summary.largeP99)}** | ${f(summary.p99Ratio)} | ≤ 20 ms: ${summary.largeP99 <= 20 ? 'met' : '**missed**'} |`,
      `| p50 ms | ${f(summary.smallP50)} | ${f(summary.largeP50)} | ${f(summary.largeP50 / summary.smallP50)} | |`,
      `| pages/s | ${summary.smallRps.toFixed(0)} | ${summary.largeRps.toFixed(0)} | ${f(summary.largeRps / summary.smallRps)} | |`,
      `| service CPU ms per page | ${summary.smallCpu.toFixed(3)} | ${summary.largeCpu.toFixed(3)} | ${f(summary.largeCpu / summary.smallCpu)} | |`,
      `| context: \`GET /health/live\` (no database, a few bytes) in the same rounds: p50 / p99 ms | ${f(summary.floorP50)} / ${f(summary.floorP99)} | | | |`,
      `| the page statement in PostgreSQL (EXPLAIN ANALYZE, 200 pages): p50 / p99 ms | ${sqlSmall.p50.toFixed(3)} / ${sqlSmall.p99.toFixed(3)} | ${sqlLarge.p50.toFixed(3)} / ${sqlLarge.p99.toFixed(3)} | | |`,
      '',
      `Rounds (1k p99 / 1M p99 ms): ${results.map((r) => `${f(r.small.p99Ms)} / ${f(r.large.p99Ms)}`).join(', ')}.`,
    ];
    if (save) {
      writeResult(ROOT, 'events-feed', {
        startedAt,
        command,
        settings: { events, small, limit, rounds, durationSec, connections },
        seedSec,
        size,
        sqlSmall,
        sqlLarge,
        summary,
        rounds: results,
      });
      replaceBlock(ROOT, 'events-feed', lines.join('\n'));
    }
  } finally {
    await db.end();
    await service.server.stop();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
