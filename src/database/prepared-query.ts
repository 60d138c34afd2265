import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
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
 * Runs SQL text on the pool or on a transaction's connection, as a named prepared statement
 * unless `prepare` is false or the data source sits behind a transaction pooler: PostgreSQL
 * parses it once per connection instead of on every call (measured with pgbench on the audit page
 * query: ~40 % more queries per second of database CPU), and the call skips TypeORM's per-query
 * logging, subscribers and result wrapping. The connection comes from TypeORM's public API (the
 * transaction's QueryRunner, or the Postgres driver's obtainMasterConnection), never from the
 * driver's pool field. Rows come back as node-postgres
 * parses them, for a statement's row shape (statement.ts) to type; errors are node-postgres's own
 * (codes on the error), which the exception filter maps. Only for SQL text that comes from code;
 * parameters carry every value.
 */
export async function executeText(
  on: DataSource | EntityManager,
  sql: string,
  params: readonly unknown[],
  prepare = true,
): Promise<QueryRow[]> {
  const dataSource = on instanceof DataSource ? on : on.dataSource;
  const name = prepare && !pooled.has(dataSource) ? statementName(sql) : undefined;
  const transaction = on instanceof DataSource ? undefined : on.queryRunner;
  if (transaction) return runOn((await transaction.connect()) as PoolClient, name, sql, params);
  // The Postgres driver's public way to a pooled connection (what its QueryRunners use), without a
  // QueryRunner of our own per statement (measured: bench/statement-runner.ts).
  const [client, release] = await (dataSource.driver as PostgresDriver).obtainMasterConnection();
  // A checked-out node-postgres client reports a dropped connection as an 'error' event, and the pool
  // listens only to idle ones: without a listener here a PostgreSQL outage would crash the process.
  // Released with the error, the pool discards the connection instead of reusing it (as TypeORM's
  // QueryRunner does).
  let broken: Error | undefined;
  const onError = (err: Error) => (broken = err);
  (client as PoolClient).on('error', onError);
  try {
    return await runOn(client as PoolClient, name, sql, params);
  } catch (err) {
    broken ??= isConnectionLost(err) ? (err as Error) : undefined;
    throw err;
  } finally {
    (client as PoolClient).removeListener('error', onError);
    (release as (err?: Error) => void)(broken);
  }
}

/** Prepared query of a repository not yet moved to typed statements (statement.ts); the same path. */
export function preparedQuery(on: DataSource | EntityManager, sql: string, params: unknown[]): Promise<QueryRow[]> {
  return executeText(on, sql, params);
}

async function runOn(client: PoolClient, name: string | undefined, sql: string, params: readonly unknown[]): Promise<QueryRow[]> {
  const values = params as unknown[];
  if (!name) return (await client.query<QueryRow>({ text: sql, values })).rows;
  try {
    return (await client.query<QueryRow>({ name, text: sql, values })).rows;
  } catch (err) {
    // A migration changed a column this statement returns: every connection holding it prepared
    // refuses it now. Prepare it afresh under a new name; the stale one lies unused until its
    // connection closes.
    // (Inside a transaction the failure has aborted it: the retry fails too, and that one request with it.)
    if (!isStalePreparedStatement(err)) throw err;
    const fresh = `${name.split('_v')[0]}_v${Date.now().toString(36)}`;
    names.set(sql, fresh);
    return (await client.query<QueryRow>({ name: fresh, text: sql, values })).rows;
  }
}

function isStalePreparedStatement(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

/** A query that failed because the connection itself is gone (node-postgres's own messages). */
function isConnectionLost(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /Connection terminated|connection is closed|ECONNRESET|Client has encountered a connection error/i.test(message);
}
