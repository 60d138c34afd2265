/**
 * What the audit sealer costs an idle service with a large log (issue 27: ≤ 1 % of a core at
 * 1,000,000 events). Seeds a workspace-spread, fully sealed log, then runs the built service
 * idle for a window with the sealer off (the in-run baseline) and on, and reads the CPU time of
 * the service process and of its PostgreSQL backends from /proc.
 *
 *   npx ts-node --transpile-only bench/sealer-idle.ts [--events=1000000] [--window=120] [--no-build]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { AUDIT_SEED_COLUMNS, AUDIT_SEED_SELECT } from './lib/audit-seed';
import { databaseUrl, recreateDatabase } from './lib/postgres';
import { sleep } from './lib/processes';
import { buildService, startService } from './lib/service';

const ROOT = join(__dirname, '..');
const DB = 'bench_sealer_idle';
const WORKSPACES = 100;
const CLOCK_TICKS = 100;

function arg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
}

function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0; // the backend ended
  }
}

async function backendPids(admin: Client): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
    DB,
  ]);
  return rows.map((r) => r.pid);
}

/** Workspace ids and the newest created_at of each seeding step. */
const workspaceId = (w: number) => `00000000-0000-4000-8000-${String(w).padStart(12, '0')}`;

async function insertEvents(db: Client, count: number, newest: number): Promise<void> {
  for (let w = 1; w <= WORKSPACES; w++) {
    await db.query(`INSERT INTO audit_events ${AUDIT_SEED_COLUMNS} ${AUDIT_SEED_SELECT}`, [
      workspaceId(w),
      newest - w,
      Math.floor(count / WORKSPACES),
    ]);
  }
}

/**
 * A log as a long-running deployment has it: most of it vacuumed, the newest 15 % written since
 * the last autovacuum (which an insert-only table gets after 20 % new rows), all of it sealed.
 */
async function seed(events: number): Promise<void> {
  const db = new Client({ connectionString: databaseUrl(DB) });
  await db.connect();
  try {
    // Bulk rows with their own created_at: the per-row trigger would make seeding take hours.
    await db.query(`SET session_replication_role = replica`);
    for (let w = 1; w <= WORKSPACES; w++) {
      await db.query(`INSERT INTO workspaces (id, name) VALUES ($1, $2)`, [workspaceId(w), `idle-${w}`]);
    }
    const older = Math.round(events * 0.85);
    const now = Date.now() - 60_000;
    await insertEvents(db, older, now - 3_600_000);
    await db.query(`VACUUM ANALYZE audit_events`);
    await insertEvents(db, events - older, now);
    // Sealed and signed already: the window measures an idle sealer, not a catch-up.
    await db.query(`INSERT INTO audit_chain (event_id, workspace_id, seq, prev_hash, hash, sealed_at)
      SELECT id, workspace_id, row_number() OVER (PARTITION BY workspace_id ORDER BY created_at), 'seed', 'seed', created_at FROM audit_events`);
    await db.query(`INSERT INTO audit_checkpoints (workspace_id, seq, event_id, hash, key_id, signature, signed_at)
      SELECT DISTINCT ON (workspace_id) workspace_id, seq, event_id, hash, 'seed', 'seed', now() FROM audit_chain ORDER BY workspace_id, seq DESC`);
    await db.query(`SET session_replication_role = origin`);
    await db.query(`ANALYZE`);
    // Parallel workers are short-lived backends the window could not count: keep all work in the sealer's backend.
    await db.query(`ALTER DATABASE ${DB} SET max_parallel_workers_per_gather = 0`);
  } finally {
    await db.end();
  }
}

/** CPU seconds per wall second (a fraction of one core) of the service and its backends over the window. */
async function idleCost(sealer: boolean, windowS: number): Promise<{ service: number; database: number }> {
  const { server } = await startService(
    ROOT,
    databaseUrl(DB),
    { AUDIT_SEALER_ENABLED: String(sealer), WEB_CONCURRENCY: '1', LOG_LEVEL: 'warn' },
    false,
  );
  const admin = new Client({ connectionString: databaseUrl('postgres') });
  await admin.connect();
  try {
    // Boot work and the sealer's first (sweeping) pass are over; autovacuum has had its turn (naptime 1 min).
    await sleep(70_000);
    const pids = await backendPids(admin);
    const before = { service: server.cpuSeconds(), database: pids.reduce((s, p) => s + cpuSecondsOf(p), 0) };
    await sleep(windowS * 1000);
    const after = { service: server.cpuSeconds(), database: pids.reduce((s, p) => s + cpuSecondsOf(p), 0) };
    const newPids = (await backendPids(admin)).filter((p) => !pids.includes(p));
    if (newPids.length) process.stdout.write(`  (${newPids.length} backends opened during the window are not counted)\n`);
    return { service: (after.service - before.service) / windowS, database: (after.database - before.database) / windowS };
  } finally {
    await admin.end();
    await server.stop();
  }
}

async function main(): Promise<void> {
  const events = arg('events', 1_000_000);
  const windowS = arg('window', 120);
  if (!process.argv.includes('--no-build')) await buildService(ROOT);
  await recreateDatabase(DB);
  // Boot once to migrate, then seed.
  const { server } = await startService(ROOT, databaseUrl(DB), { AUDIT_SEALER_ENABLED: 'false', WEB_CONCURRENCY: '1' }, false);
  await server.stop();
  const seededAt = Date.now();
  await seed(events);
  process.stdout.write(`seeded ${events} sealed events in ${WORKSPACES} workspaces in ${Math.round((Date.now() - seededAt) / 1000)} s\n`);
  const off = await idleCost(false, windowS);
  const on = await idleCost(true, windowS);
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  process.stdout.write(`\n| idle ${windowS} s at ${events} events | service | PostgreSQL | total |\n|---|---|---|---|\n`);
  process.stdout.write(`| sealer off (baseline) | ${pct(off.service)} | ${pct(off.database)} | ${pct(off.service + off.database)} |\n`);
  process.stdout.write(`| sealer on | ${pct(on.service)} | ${pct(on.database)} | ${pct(on.service + on.database)} |\n`);
  process.stdout.write(`| sealer's own cost | | | **${pct(on.service + on.database - off.service - off.database)}** of a core |\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
