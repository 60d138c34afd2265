import { createHash } from 'node:crypto';
import { Client } from 'pg';

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
