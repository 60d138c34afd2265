import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { runMigrations } from '../../src/database/migrate';

/** Admin connection to the machine's PostgreSQL (trust auth on the dev machines and CI). */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const WORKER_SLOTS = 4;

/** Per checkout, so two checkouts on one machine never share test databases. */
export function databasePrefix(): string {
  const root = process.env.TEST_ROOT_DIR ?? process.cwd();
  return `idsvc_t_${createHash('sha1').update(root).digest('hex').slice(0, 8)}`;
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function workerDatabaseName(): string {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return `${databasePrefix()}_w${((worker - 1) % WORKER_SLOTS) + 1}`;
}

export async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function recreateDatabase(client: Client, name: string, template?: string): Promise<void> {
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
}

/**
 * Migrates the template database once per run, then clones one fresh database per Jest worker
 * from it (CREATE DATABASE … TEMPLATE is a file copy: fast). Shared by the e2e and repository
 * projects' global setups: when one `jest` run holds both, the second finds them made.
 */
export async function prepareWorkerDatabases(): Promise<void> {
  if (process.env.TEST_WORKER_DATABASES_READY === databasePrefix()) return;
  const template = `${databasePrefix()}_template`;
  await withAdmin((client) => recreateDatabase(client, template));
  const dataSource = await new DataSource(
    dataSourceOptions({ url: databaseUrl(template), embedded: false, poolSize: 2, statementTimeoutMs: 0 }),
  ).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  await withAdmin(async (client) => {
    for (let slot = 1; slot <= WORKER_SLOTS; slot++) await recreateDatabase(client, `${databasePrefix()}_w${slot}`, template);
  });
  process.env.TEST_WORKER_DATABASES_READY = databasePrefix();
}

/** Drops the template and per-worker databases (KEEP_TEST_DATABASES=1 keeps them to inspect). */
export async function dropWorkerDatabases(): Promise<void> {
  if (process.env.KEEP_TEST_DATABASES) return;
  const names = [`${databasePrefix()}_template`, ...Array.from({ length: WORKER_SLOTS }, (_, i) => `${databasePrefix()}_w${i + 1}`)];
  await withAdmin(async (client) => {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}
