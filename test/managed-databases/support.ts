import type { TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import type { TestDeveloper, TestWorkspace } from '../support/factories';

/** Engines on this machine: the real Postgres and Redis, reached at their real ports. */
export function managedEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    MANAGED_POSTGRES_ADMIN_URL: process.env.MANAGED_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    MANAGED_POSTGRES_PUBLIC_HOST: '127.0.0.1',
    MANAGED_POSTGRES_PUBLIC_PORT: '5432',
    MANAGED_POSTGRES_SSL_MODE: 'disable', // the machine's server has no TLS
    MANAGED_REDIS_ADMIN_URL: process.env.MANAGED_REDIS_ADMIN_URL ?? 'redis://127.0.0.1:6379',
    MANAGED_REDIS_PUBLIC_HOST: '127.0.0.1',
    MANAGED_REDIS_PUBLIC_PORT: '6379',
    MANAGED_MONGODB_ADMIN_URL: process.env.MANAGED_MONGODB_ADMIN_URL ?? '',
    ...extra,
  };
}

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20000): Promise<T> {
  return eventually(
    async () => {
      const last = await read();
      if (!done(last)) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
      return last;
    },
    { timeoutMs, intervalMs: 50 },
  );
}

export interface CreatedDatabase {
  id: string;
  db_name: string;
  engine: string;
  status: string;
  [k: string]: unknown;
}

export async function createDatabase(
  t: TestApp,
  dev: TestDeveloper,
  ws: TestWorkspace,
  engine: string,
  displayName = `${engine} db`,
): Promise<CreatedDatabase> {
  const res = await t
    .http()
    .post(`/e/v1/developer/workspaces/${ws.id}/databases/`)
    .set(dev.auth)
    .send({ display_name: displayName, engine });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as CreatedDatabase;
}

export async function untilStatus(t: TestApp, dev: TestDeveloper, id: string, status: string | string[]): Promise<CreatedDatabase> {
  const wanted = ([] as string[]).concat(status);
  const res = await waitFor(
    () => t.http().get(`/e/v1/developer/databases/${id}/`).set(dev.auth),
    (r) => wanted.includes(r.body?.status),
    `database ${id} to be ${wanted.join('|')}`,
  );
  return res.body as CreatedDatabase;
}

export async function anAvailableDatabase(t: TestApp, dev: TestDeveloper, ws: TestWorkspace, engine: string): Promise<CreatedDatabase> {
  const created = await createDatabase(t, dev, ws, engine);
  return untilStatus(t, dev, created.id, 'available');
}

export async function untilJobDone(t: TestApp, dev: TestDeveloper, path: string): Promise<Record<string, unknown>> {
  const res = await waitFor(
    () => t.http().get(path).set(dev.auth),
    (r) => ['completed', 'failed'].includes(r.body?.status),
    `${path} to finish`,
  );
  return res.body as Record<string, unknown>;
}

/** Safety net: drop, through the app's own jobs, every database a suite left behind. */
export async function deleteAll(t: TestApp): Promise<void> {
  const rows = (await t.dataSource.query(`SELECT id, workspace_id, db_name, engine, username FROM managed_databases`)) as {
    id: string;
    workspace_id: string;
  }[];
  if (rows.length === 0) return;
  await t.dataSource.query(`UPDATE managed_databases SET status = 'deleting'`);
  const { ManagedDbJobs } = await import('../../src/managed-databases/managed-db.jobs');
  const jobs = t.get<InstanceType<typeof ManagedDbJobs>>(ManagedDbJobs);
  for (const r of rows) await jobs.deprovision({ databaseId: r.id, workspaceId: r.workspace_id }).catch(() => undefined);
}
