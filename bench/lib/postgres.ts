import { Client, Pool } from 'pg';

/** Superuser connection to the local server; override with BENCH_PG_ADMIN_URL. */
export const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** URL of database `name` on the same server as ADMIN_URL. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops and recreates a database. Bench data lives only here: the audit table refuses
 * UPDATE/DELETE/TRUNCATE, so a fresh database is the only way to reset it.
 */
export async function recreateDatabase(name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}

export async function serverVersion(): Promise<string> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
    return rows[0].server_version;
  } finally {
    await admin.end();
  }
}

export function pool(url: string, max = 4): Pool {
  return new Pool({ connectionString: url, max });
}

/**
 * Suffix that keeps concurrent runs from different worktrees (/work/wt/<name>) out of
 * each other's databases.
 */
export function databaseSuffix(cwd: string): string {
  const base = cwd.split('/').filter(Boolean).pop() ?? 'main';
  return base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 30);
}
