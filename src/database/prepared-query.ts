import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { QueryRow } from './rows';

/**
 * At most this many distinct statements are ever prepared: each one lives in every pooled
 * backend until its connection closes, and SQL built from client input (SCIM filters) could
 * otherwise grow that without bound. Later statements run unnamed, as before.
 */
const MAX_PREPARED = 256;
const names = new Map<string, string>();

/**
 * Data sources whose connections are a transaction-mode pooler's (DATABASE_POOLER=transaction):
 * consecutive statements may reach different server connections, where a statement prepared
 * on another one does not exist (PgBouncer before 1.21 does not carry them), so every statement
 * runs unnamed there.
 */
const pooled = new WeakSet<DataSource>();

/** From now on, statements on this data source run unnamed (it sits behind a transaction pooler). */
export function unnamedStatementsOn(dataSource: DataSource): void {
  pooled.add(dataSource);
}

function statementName(sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_PREPARED) {
    name = `q_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * A query on the hot path as a named prepared statement, on the pool or on a transaction's
 * connection: PostgreSQL parses it once per connection instead of on every call (measured with
 * pgbench on the audit page query: ~40 % more queries per second of database CPU), and the
 * call skips TypeORM's per-query QueryRunner. Rows come back as node-postgres parses them, for
 * the repository's mapping function to type; errors are node-postgres's own (codes on the error), which the exception filter maps.
 * Only for statements whose SQL text comes from code; parameters carry every value.
 */
export async function preparedQuery(on: DataSource | EntityManager, sql: string, params: unknown[]): Promise<QueryRow[]> {
  const pool = await queryable(on);
  const name = pooled.has(on instanceof DataSource ? on : on.connection) ? undefined : statementName(sql);
  if (!name) return (await pool.query<QueryRow>({ text: sql, values: params })).rows;
  try {
    return (await pool.query<QueryRow>({ name, text: sql, values: params })).rows;
  } catch (err) {
    // A migration changed a column this statement returns: every connection holding it prepared
    // refuses it now. Prepare it afresh under a new name; the stale one lies unused until its
    // connection closes.
    // (Inside a transaction the failure has aborted it: the retry fails too, and that one request with it.)
    if (!isStalePreparedStatement(err)) throw err;
    const fresh = `${name.split('_v')[0]}_v${Date.now().toString(36)}`;
    names.set(sql, fresh);
    return (await pool.query<QueryRow>({ name: fresh, text: sql, values: params })).rows;
  }
}

/**
 * The pool for a DataSource; for a transaction's EntityManager, the connection it holds, so the
 * statement runs inside that transaction (each connection keeps its own prepared statements).
 */
async function queryable(on: DataSource | EntityManager): Promise<Pool | PoolClient> {
  if (on instanceof DataSource) return (on.driver as unknown as { master: Pool }).master;
  const runner = on.queryRunner;
  if (!runner) return (on.connection.driver as unknown as { master: Pool }).master;
  return (await runner.connect()) as PoolClient;
}

function isStalePreparedStatement(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}
