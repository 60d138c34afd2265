import { join } from 'node:path';
import { freePort, profileArgs, runCommand, ServerProcess } from './processes';
import { pool, recreateDatabase } from './postgres';
import type { BaselineName, BenchRequest } from './types';

export interface RunningBaseline {
  server: ServerProcess;
  baseUrl: string;
  requests: BenchRequest[];
}

const ITEM_ROWS = 10_000;
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
  if (name === 'pk-select') {
    const seeded = await seedItems(dbName);
    env.DATABASE_URL = seeded.url;
    requests = seeded.ids.map((id) => ({ path: `/items/${id}` }));
  }
  const server = await ServerProcess.start({
    name: `baseline ${name}`,
    args: [...profileArgs(root, `baseline-${name}`, cpuProf), join(root, 'bench/.build/baselines', `${name}.main.js`)],
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
