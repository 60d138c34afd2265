/**
 * The typed-statement path (decision 0140) against what it replaced, in one process, on the hot
 * read of `GET /scim/v2/Users/{id}`: the statement run as a named prepared statement and its row
 * read. Both paths run on the same data source and pool, in alternating windows, so the load of a
 * shared machine hits both alike; the figure is this process's CPU per statement (user + system),
 * the one least disturbed by other work.
 *
 *   A (before): pool.query on the driver's pool field, then a hand-written reader (the last one,
 *               copied here as it was).
 *   B (after):  `first(dataSource, FIND_BY_ID, …)`: a QueryRunner of the driver, then the row shape
 *               derived from the EndUser entity.
 *
 *   npx ts-node --transpile-only bench/statement-runner.ts [--windows=10] [--calls=4000]
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source';
import { runMigrations } from '../src/database/migrate';
import { executeText } from '../src/database/prepared-query';
import { bool, date, QueryRow, text } from '../src/database/rows';
import { entityColumns } from '../src/database/row-shape';
import { first, statement } from '../src/database/statement';
import { EndUser } from '../src/end-user-directory/entities/end-user.entity';
import { databaseSuffix, recreateDatabase } from './lib/postgres';

const SQL = `SELECT u.id, u.email, u.first_name, u.last_name, u.is_active, u.created_at, u.updated_at FROM end_users u
  WHERE u.workspace_id = $1 AND COALESCE(u.oauth_client_id, '00000000-0000-0000-0000-000000000000'::uuid) = '00000000-0000-0000-0000-000000000000'::uuid AND u.id = $2`;
const FIND_BY_ID = statement(
  'bench.find-by-id',
  SQL,
  entityColumns(EndUser, ['id', 'email', 'firstName', 'lastName', 'isActive', 'createdAt', 'updatedAt']),
);

/** The reader the SCIM users repository had before decision 0140. */
function handWritten(row: QueryRow) {
  return {
    id: text(row, 'id'),
    email: text(row, 'email'),
    first_name: text(row, 'first_name'),
    last_name: text(row, 'last_name'),
    is_active: bool(row, 'is_active'),
    created_at: date(row, 'created_at'),
    updated_at: date(row, 'updated_at'),
  };
}

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  const [windows, calls] = [arg('windows', 10), arg('calls', 4000)];
  const url = await recreateDatabase(`identity_bench_runner_${databaseSuffix(process.cwd())}`);
  const dataSource = await new DataSource(dataSourceOptions({ url, embedded: false, poolSize: 10, statementTimeoutMs: 0 })).initialize();
  try {
    await runMigrations(dataSource);
    const [ws] = await dataSource.query<{ id: string }[]>(`INSERT INTO workspaces (name) VALUES ('bench') RETURNING id`);
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO end_users (id, workspace_id, email, first_name, last_name) VALUES ($1, $2, 'b@example.test', 'B', 'E')`,
      [id, ws.id],
    );
    const params = [ws.id, id];
    // The field the old path read, reached here only to measure it.
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const before = async () => handWritten((await pool.query<QueryRow>({ name: 'bench_before', text: SQL, values: params })).rows[0]);
    const after = async () => (await first(dataSource, FIND_BY_ID, params))!;
    // Sanity: both answer the row; and the runner on its own (no reader), for the split.
    if ((await before()).id !== id || (await after()).id !== id) throw new Error('the paths disagree');
    const runnerOnly = () => executeText(dataSource, SQL, params);
    const window = async (call: () => Promise<unknown>) => {
      const start = cpuMicros();
      for (let i = 0; i < calls; i++) await call();
      return (cpuMicros() - start) / calls;
    };
    for (const warm of [before, after, runnerOnly]) await window(warm);
    const ratios: number[] = [];
    const runnerRatios: number[] = [];
    for (let w = 1; w <= windows; w++) {
      // Alternate which path goes first, so a drift in the machine's load within a window pair evens out.
      const [a, b, r] = w % 2 ? [await window(before), await window(after), await window(runnerOnly)] : await reversed();
      ratios.push(b / a);
      runnerRatios.push(r / a);
      console.log(
        `window ${w}: before ${a.toFixed(1)} µs CPU/stmt, after ${b.toFixed(1)} (runner alone ${r.toFixed(1)}): after/before ${(b / a).toFixed(3)}`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    console.log(`after/before CPU per statement: median ${median(ratios).toFixed(3)} over ${windows} windows of ${calls} calls`);
    console.log(`runner alone/before: median ${median(runnerRatios).toFixed(3)}`);

    async function reversed(): Promise<[number, number, number]> {
      const r = await window(runnerOnly);
      const b = await window(after);
      const a = await window(before);
      return [a, b, r];
    }
  } finally {
    await dataSource.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
