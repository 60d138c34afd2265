import { DataSource, type EntityManager } from 'typeorm';
import { executeText } from './prepared-query';
import type { RowShape } from './row-shape';
import type { QueryRow } from './rows';

/**
 * A SQL statement as a typed value: its text and the shape of the row it answers. Where SQL text
 * earns its place (hot paths, CTEs, locking, ON CONFLICT), a repository declares its statements
 * with `statement(...)` at module level; each one is listed in the catalog, PREPAREd against the
 * migrated schema by the statements test and kept, text and all, in the checked-in snapshot
 * (test/database/statements.snapshot.sql, `npm run sql:snapshot`), so a change to a query shows in
 * review. Parameters are always bound ($1…); the text never carries a value.
 */
export interface Statement<R> {
  /** `<repository>.<what>`: unique, the snapshot's key. */
  readonly id: string;
  readonly text: string;
  readonly shape: RowShape<R>;
}

const catalog = new Map<string, Statement<unknown>>();

function register<R>(s: Statement<R>): Statement<R> {
  if (catalog.has(s.id)) throw new Error(`statement ${s.id} is declared twice`);
  catalog.set(s.id, s as Statement<unknown>);
  return s;
}

/** Declares a statement whose text is fixed. */
export function statement<R>(id: string, text: string, shape: RowShape<R>): Statement<R> {
  return register({ id, text, shape });
}

/** Statements sharing one row shape whose text is built from a few code-side choices. */
export type StatementFamily<A extends unknown[], R> = ((...args: A) => Statement<R>) & {
  /** A member whose text the caller built already (with its parameters, in one pass). */
  of(text: string): Statement<R>;
};

/**
 * Declares statements whose text is built from a few code-side choices (optional bounds, a
 * compiled filter): `build` makes the text, and every entry of `samples` is listed in the catalog
 * (and so prepared and snapshotted) as `<id>[<sample name>]`. Client input reaches only the
 * parameters, never the text.
 */
export function statementFamily<A extends unknown[], R>(
  id: string,
  shape: RowShape<R>,
  build: (...args: A) => string,
  samples: Record<string, A>,
): StatementFamily<A, R> {
  for (const [name, args] of Object.entries(samples)) register({ id: `${id}[${name}]`, text: build(...args), shape });
  const of = (text: string): Statement<R> => ({ id, text, shape });
  return Object.assign((...args: A) => of(build(...args)), { of });
}

/** The statement `s` rewritten (e.g. with the unit of work's riders), answering the same row and more. */
export function rewritten<R>(s: Statement<R>, text: string): Statement<R> {
  return { id: s.id, text, shape: s.shape };
}

/** Every declared statement (those of the modules loaded so far), by id. */
export function declaredStatements(): readonly Statement<unknown>[] {
  return [...catalog.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Binds every declared statement's row shape to the data source's entity metadata: a property
 * or column an entity no longer has fails here, at boot.
 */
export function bindStatements(dataSource: DataSource): void {
  for (const s of catalog.values()) s.shape.reader(dataSource);
}

export interface RunOptions {
  /**
   * false: run unnamed (not PREPAREd server-side), for texts that vary with client input (a
   * compiled SCIM filter) and would otherwise fill the prepared-statement cache.
   */
  prepare?: boolean;
}

/** Runs the statement on the pool or on a transaction's connection and reads every row it answers. */
export async function run<R>(
  on: DataSource | EntityManager,
  s: Statement<R>,
  params: readonly unknown[],
  options?: RunOptions,
): Promise<R[]> {
  return readRows(on, s, await runRaw(on, s, params, options));
}

/** The first row the statement answers, or undefined. */
export async function first<R>(
  on: DataSource | EntityManager,
  s: Statement<R>,
  params: readonly unknown[],
  options?: RunOptions,
): Promise<R | undefined> {
  const rows = await runRaw(on, s, params, options);
  return rows.length ? readRows(on, s, rows.slice(0, 1))[0] : undefined;
}

/** The row the statement must answer (a count, an aggregate, a function call). */
export async function one<R>(
  on: DataSource | EntityManager,
  s: Statement<R>,
  params: readonly unknown[],
  options?: RunOptions,
): Promise<R> {
  const row = await first(on, s, params, options);
  if (row === undefined) throw new Error(`statement ${s.id} answered no row`);
  return row;
}

/** The raw rows, for a caller that reads extra columns itself (the unit of work's riders) before `readRows`. */
export function runRaw(
  on: DataSource | EntityManager,
  s: Statement<unknown>,
  params: readonly unknown[],
  options?: RunOptions,
): Promise<QueryRow[]> {
  return executeText(on, s.text, params, options?.prepare ?? true);
}

export function readRows<R>(on: DataSource | EntityManager, s: Statement<R>, rows: readonly QueryRow[]): R[] {
  return rows.map(s.shape.reader(dataSourceOf(on)));
}

export function dataSourceOf(on: DataSource | EntityManager): DataSource {
  return on instanceof DataSource ? on : on.dataSource;
}
