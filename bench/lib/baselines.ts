import { join } from 'node:path';
import { freePort, profileArgs, runCommand, ServerProcess } from './processes';
import { AUDIT_EVENTS, AUDIT_SEED_COLUMNS, AUDIT_SEED_SELECT, deepPageCursors } from './audit-seed';
import { pool, recreateDatabase } from './postgres';
import type { BaselineName, BenchRequest } from './types';

export interface RunningBaseline {
  server: ServerProcess;
  baseUrl: string;
  requests: BenchRequest[];
}

const ITEM_ROWS = 10_000;
/** Baselines that are another one's app started with a different environment. */
const BASELINE_FILE: Partial<Record<BaselineName, string>> = { 'pk-select-shared': 'pk-select' };
const ITEMS_REQUESTED = 100;

/** Compiles bench/baselines/*.ts to bench/.build/baselines (plain node, like dist/main.js). */
export async function buildBaselines(root: string): Promise<void> {
  await runCommand(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'bench/baselines/tsconfig.json'], root);
}

/** Starts one baseline server as a child process and returns the requests to load it with. */
export async function startBaseline(name: BaselineName, root: string, dbName: string, cpuProf = false): Promise<RunningBaseline> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = { NODE_ENV: 'production', PORT: String(port) };
  let requests: BenchRequest[] = [{ path: '/hello' }];
  if (name === 'pk-select' || name === 'pk-select-shared' || name === 'bare-pk') {
    // Each its own database: they may run at once, and seeding recreates it.
    const seeded = await seedItems(name === 'pk-select' ? dbName : `${dbName}_${name.replace(/-/g, '_')}`);
    env.DATABASE_URL = seeded.url;
    requests = seeded.ids.map((id) => ({ path: `/items/${id}` }));
    if (name === 'pk-select-shared') env.BASELINE_SHARED_PROTOTYPES = '1';
  }
  if (name === 'page-select') {
    const seeded = await seedEvents(`${dbName}_events`);
    env.DATABASE_URL = seeded.url;
    requests = seeded.requests;
  }
  const server = await ServerProcess.start({
    name: `baseline ${name}`,
    args: [
      ...profileArgs(root, `baseline-${name}`, cpuProf),
      join(root, 'bench/.build/baselines', `${BASELINE_FILE[name] ?? name}.main.js`),
    ],
    env,
    cwd: root,
    readyUrl: baseUrl + requests[0].path,
    logFile: join(root, 'bench/results/logs', `baseline-${name}.log`),
  });
  return { server, baseUrl, requests };
}

/** A fresh database with 10,000 rows; the load cycles through 100 of their ids. */
async function seedItems(dbName: string): Promise<{ url: string; ids: string[] }> {
  const url = await recreateDatabase(dbName);
  const db = pool(url, 1);
  try {
    await db.query(`CREATE TABLE bench_item (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      value integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await db.query(`INSERT INTO bench_item (name, value) SELECT 'item ' || g, g FROM generate_series(1, $1) g`, [ITEM_ROWS]);
    await db.query('ANALYZE bench_item');
    const { rows } = await db.query<{ id: string }>('SELECT id FROM bench_item ORDER BY value LIMIT $1', [ITEMS_REQUESTED]);
    return { url, ids: rows.map((r) => r.id) };
  } finally {
    await db.end();
  }
}

/**
 * bench_event: the columns of audit_events, filled by the same seed as the audit scenarios
 * (bench/lib/audit-seed.ts), with the same (workspace_id, created_at DESC) index; the
 * load reads deep pages 500,000 to 990,000 rows back, as the deep-page scenario does.
 */
async function seedEvents(dbName: string): Promise<{ url: string; requests: BenchRequest[] }> {
  const url = await recreateDatabase(dbName);
  const db = pool(url, 1);
  const workspaceId = '6f1d3c1e-0000-4000-8000-000000000001';
  const newestMs = Math.floor(Date.now() / 1000) * 1000 - 1000;
  try {
    await db.query(`CREATE TABLE bench_event (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(), workspace_id uuid, event_type text NOT NULL, severity text NOT NULL,
      actor_type text NOT NULL, actor_id text, actor_email text, target_type text, target_id text, oauth_client_id text,
      ip_address text, user_agent text, request_id text, message text NOT NULL DEFAULT '', metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL)`);
    await db.query(`INSERT INTO bench_event ${AUDIT_SEED_COLUMNS} ${AUDIT_SEED_SELECT}`, [workspaceId, newestMs, AUDIT_EVENTS]);
    await db.query('CREATE UNIQUE INDEX bench_event_workspace_created_key ON bench_event (workspace_id, created_at DESC)');
    await db.query('VACUUM (ANALYZE) bench_event');
  } finally {
    await db.end();
  }
  const requests = deepPageCursors(newestMs).map((cursor) => ({
    path: `/events?workspace_id=${workspaceId}&cursor=${encodeURIComponent(cursor)}`,
  }));
  return { url, requests };
}
