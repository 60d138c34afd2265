import type { DataSource } from 'typeorm';
import { computed, type RowShape } from '../../database/row-shape';
import { one, run, type RunOptions, type Statement, statementFamily } from '../../database/statement';
import type { FilterNode } from '../filter/ast';
import { type Keyed, keysetPage, keysetValues, offsetPage, type PageSource } from './paging';

/** A filter as SQL, with the parameters it binds after the workspace id ($1). */
export interface CompiledFilter {
  where: string;
  params: unknown[];
}

/** What a SCIM collection's repository knows of its own pages: its filter compiler and its statements. */
export interface CollectionStatements<R> {
  compile(workspaceId: string, filter: FilterNode | undefined): CompiledFilter;
  /** The filter's total; `filtered` is false when the client sent no filter. */
  count(where: string, filtered: boolean): Statement<{ total: number }>;
  /** One page by offset: binds the limit and offset after the filter's parameters. */
  page(where: string, n: number): Statement<R>;
  /** One page after a position (or the first): binds the limit, then the position's created_at and id. */
  pageAfter(where: string, n: number, after: boolean): Statement<Keyed<R>>;
  /** Whether the offset page's statements may be prepared: only where the filter keeps to a few SQL texts. */
  preparesOffsetPage?(filter: FilterNode | undefined): boolean;
}

/** A collection's table as its page statements read it (`FROM <table> <alias>`), and the columns of its rows. */
export interface CollectionTable {
  table: string;
  alias: string;
  columns: string;
}

/** The WHERE texts the statement catalog samples: the workspace alone, and the filter identity providers send most. */
export interface CollectionSamples {
  all: string;
  filtered: string;
}

/** A timestamptz as exact microseconds since the epoch (text), and back: node-postgres would round it to milliseconds. */
const MICROS = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
const FROM_MICROS = (param: string) => `('epoch'::timestamptz + ${param}::bigint * interval '1 microsecond')`;

/**
 * The two page statements of a collection (`<collection>.page`, `<collection>.page-after`), both in
 * (created_at, id) order.
 *
 * By offset, the skip reads only index entries (an index-only scan where an index holds the
 * workspace's rows in page order), then the page's rows are fetched by id: a deep page costs the
 * skip of index entries, not of rows.
 *
 * After a position, each row comes with its exact page key (created_at in microseconds, as text).
 */
export function pageStatements<R>(
  collection: string,
  shape: RowShape<R>,
  { table, alias: a, columns }: CollectionTable,
  s: CollectionSamples,
) {
  const order = `ORDER BY ${a}.created_at, ${a}.id`;
  const page = statementFamily(
    `${collection}.page`,
    shape,
    (where: string, n: number) => `SELECT ${columns} FROM ${table} ${a}
           JOIN (SELECT ${a}.id FROM ${table} ${a} WHERE ${where} ${order} LIMIT $${n + 1} OFFSET $${n + 2}) page ON page.id = ${a}.id
          ${order}`,
    { all: [s.all, 1], filtered: [s.filtered, 2] },
  );
  const position = (n: number) => ` AND (${a}.created_at, ${a}.id) > (${FROM_MICROS(`$${n + 2}`)}, $${n + 3}::uuid)`;
  const pageAfter = statementFamily(
    `${collection}.page-after`,
    shape.and(computed({ pageKey: ['page_key', 'text'] })),
    (where: string, n: number, after: boolean) => `SELECT ${columns}, ${MICROS(`${a}.created_at`)} AS page_key FROM ${table} ${a}
        WHERE ${where}${after ? position(n) : ''} ${order} LIMIT $${n + 1}`,
    { first: [s.all, 1, false], next: [s.all, 1, true], filtered: [s.filtered, 2, true] },
  );
  return { page, pageAfter };
}

/**
 * The pages of one SCIM collection in a workspace through the client's filter, by offset or after a
 * position (RFC 9865), each with the filter's total. The cursor pages and any statement the caller
 * does not prepare run unnamed: a compiled filter's text varies with the client's filter and would
 * otherwise fill the prepared-statement cache.
 */
export function collectionPages<R>(
  dataSource: DataSource,
  statements: CollectionStatements<R>,
  workspaceId: string,
  filter: FilterNode | undefined,
): PageSource<R> {
  const unnamed = { prepare: false };
  const offsetOptions = { prepare: statements.preparesOffsetPage?.(filter) ?? false };
  const total = async (where: string, params: unknown[], options: RunOptions) =>
    (await one(dataSource, statements.count(where, filter !== undefined), params, options)).total;
  return {
    async byOffset(offset, limit) {
      const { where, params } = statements.compile(workspaceId, filter);
      const count = () => total(where, params, offsetOptions);
      const read = () => run(dataSource, statements.page(where, params.length), [...params, limit, offset], offsetOptions);
      return offsetPage(count, read, offset, limit);
    },
    async after(position, limit) {
      const { where, params } = statements.compile(workspaceId, filter);
      const count = () => total(where, params, unnamed);
      const read = () =>
        run(dataSource, statements.pageAfter(where, params.length, position !== null), keysetValues(params, position, limit), unnamed);
      return keysetPage(count, read, limit);
    },
  };
}
