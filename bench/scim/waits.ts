/**
 * Where concurrent group PATCHes wait: `npx ts-node bench/scim/waits.ts [--connections=20] [--seconds=10] [--no-build]`.
 *
 * Builds and starts the service on a fresh database (`identity_bench_<worktree>_waits`), makes a
 * SCIM workspace with a few thousand users and one group, then keeps `connections` PATCHes in
 * flight, each adding one new member to that group, while a separate connection samples
 * `pg_stat_activity` every 5 ms. It prints, per wait event, the share of samples in which a
 * service backend was in it (an active backend with no wait event counts as `CPU`;
 * `idle in transaction` is a backend waiting for the service's next statement), the lock
 * types waited on (`pg_locks` where not granted), the PATCH rate, and checks afterwards that
 * every member is present exactly once and every PATCH wrote one audit row.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { ApiClient } from '../lib/api-client';
import { databaseSuffix, pool, recreateDatabase } from '../lib/postgres';
import { buildService, createDeveloper, createWorkspace, startService } from '../lib/service';

const ROOT = resolve(__dirname, '../..');
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

async function main(): Promise<void> {
  const connections = arg('connections', 20);
  const seconds = arg('seconds', 10);
  const users = arg('users', 20_000);
  if (!process.argv.includes('--no-build')) await buildService(ROOT);
  const url = await recreateDatabase(`identity_bench_${databaseSuffix(ROOT)}_waits`);
  const service = await startService(ROOT, url, {}, false);
  const db = pool(url, 2);
  try {
    const api = new ApiClient(service.baseUrl);
    const dev = await createDeveloper(api);
    const ws = await createWorkspace(api, dev, 'waits');
    const minted = await api.post<{ token: string }>('/developer/scim/tokens/', {
      headers: dev.authHeaders,
      body: { workspace_id: ws.id, label: 'waits' },
    });
    const headers = { authorization: `Bearer ${minted.body.token}`, 'content-type': 'application/scim+json' };
    await db.query(
      `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified)
       SELECT $1, 'w' || g || '@waits.example', 'G' || g, 'F' || g, true, true FROM generate_series(1, $2::int) g`,
      [ws.id, users],
    );
    await db.query('VACUUM (ANALYZE) end_users');
    const { rows: ids } = await db.query<{ id: string }>(`SELECT id FROM end_users WHERE workspace_id = $1 ORDER BY random()`, [ws.id]);
    const group = await api.post<{ id: string }>('/scim/v2/Groups', {
      headers,
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `Everyone ${randomUUID()}` },
    });

    const samples = new Map<string, number>();
    const locks = new Map<string, number>();
    let sampleCount = 0;
    let next = 0;
    let done = 0;
    let failed = 0;
    const deadline = Date.now() + seconds * 1000;
    const latencies: number[] = [];
    const worker = async () => {
      while (Date.now() < deadline && next < ids.length) {
        const id = ids[next++].id;
        const started = process.hrtime.bigint();
        const res = await fetch(`${service.baseUrl}/scim/v2/Groups/${group.body.id}?excludedAttributes=members`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
          }),
        });
        await res.arrayBuffer();
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (res.ok) done++;
        else failed++;
      }
    };
    const sampler = async () => {
      const client = await db.connect();
      try {
        while (Date.now() < deadline) {
          const { rows } = await client.query<{ ev: string }>(
            `SELECT CASE WHEN state = 'active' THEN COALESCE(wait_event_type || ':' || wait_event, 'CPU') ELSE state END AS ev
               FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'`,
          );
          const { rows: waitedLocks } = await client.query<{ lock: string }>(
            `SELECT l.locktype || COALESCE(':' || l.relation::regclass::text, '') || ' ' || l.mode AS lock
               FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE NOT l.granted AND a.datname = current_database()`,
          );
          sampleCount++;
          for (const { ev } of rows) samples.set(ev, (samples.get(ev) ?? 0) + 1);
          for (const { lock } of waitedLocks) locks.set(lock, (locks.get(lock) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 5));
        }
      } finally {
        client.release();
      }
    };
    await Promise.all([sampler(), ...Array.from({ length: connections }, worker)]);

    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))].toFixed(1);
    console.log(`${connections} connections, ${seconds} s: ${done} PATCHes (${(done / seconds).toFixed(0)}/s), ${failed} failed`);
    console.log(`latency p50 ${pct(50)} ms, p99 ${pct(99)} ms`);
    console.log(`\nbackends per sample (${sampleCount} samples), by wait event:`);
    for (const [ev, n] of [...samples].sort((a, b) => b[1] - a[1])) console.log(`  ${(n / sampleCount).toFixed(2).padStart(6)}  ${ev}`);
    console.log(`\nungranted locks per sample:`);
    for (const [l, n] of [...locks].sort((a, b) => b[1] - a[1])) console.log(`  ${(n / sampleCount).toFixed(2).padStart(6)}  ${l}`);
    const { rows: check } = await db.query<{ members: number; distinct: number; audited: number }>(
      `SELECT (SELECT count(*)::int FROM scim_group_members WHERE group_id = $1) AS members,
              (SELECT count(DISTINCT user_id)::int FROM scim_group_members WHERE group_id = $1) AS distinct,
              (SELECT count(*)::int FROM audit_events WHERE workspace_id = $2 AND event_type = 'scim_group_update' AND target_id = $1::text) AS audited`,
      [group.body.id, ws.id],
    );
    console.log(`\nafter the run: ${JSON.stringify(check[0])} (expected members = distinct = audited = ${done})`);
  } finally {
    await db.end();
    await service.server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
