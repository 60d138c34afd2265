import { type CursorKind, type PagePosition, positionFor } from './cursor';
import { cursorListResponse, type ListQuery, listResponse } from './list-query';

/** A page of a SCIM collection and the total its filter matches. */
export interface Page<R> {
  total: number;
  rows: R[];
}

/** A row read by cursor paging: with its exact page key (created_at in microseconds, as text). */
export type Keyed<R> = R & { pageKey: string };

/** How a collection's repository reads a page: by offset (startIndex) or after a position (RFC 9865). */
export interface PageSource<R> {
  byOffset(offset: number, limit: number): Promise<Page<R>>;
  after(position: PagePosition | null, limit: number): Promise<Page<Keyed<R>>>;
}

/**
 * The ListResponse of a SCIM list (RFC 7644 §3.4.2, or RFC 9865 cursor paging when the query has a
 * cursor): reads the page from `source` and shapes its rows with `present`. Cursor paging reads one
 * row more than the page, which tells whether a next page exists without a second query.
 */
export async function listPage<R extends { id: string }>(
  q: ListQuery,
  kind: CursorKind,
  source: PageSource<R>,
  present: (rows: R[]) => Promise<unknown[]> | unknown[],
): Promise<Record<string, unknown>> {
  if (q.cursor) {
    const { total, rows } = await source.after(positionFor(q.cursor, kind), q.count && q.count + 1);
    const page = rows.slice(0, q.count);
    const last = page.at(-1);
    const next = rows.length > q.count && last ? { kind, createdUs: last.pageKey, id: last.id } : null;
    return cursorListResponse(total, await present(page), next);
  }
  const { total, rows } = await source.byOffset(q.startIndex - 1, q.count);
  return listResponse(total, q.startIndex, await present(rows));
}

/**
 * One page by offset and the total: a short page that starts at or after the first row tells the
 * total without counting (the usual filter lookup), so `count` runs only when the page cannot.
 */
export async function offsetPage<R>(
  count: () => Promise<number>,
  read: () => Promise<R[]>,
  offset: number,
  limit: number,
): Promise<Page<R>> {
  if (limit === 0) return { total: await count(), rows: [] };
  const rows = await read();
  const total = rows.length > 0 && rows.length < limit ? offset + rows.length : offset === 0 && rows.length === 0 ? 0 : await count();
  return { total, rows };
}

/** One page after a position (RFC 9865) and the filter's total; a page of 0 reads no rows. */
export async function keysetPage<R>(count: () => Promise<number>, read: () => Promise<R[]>, limit: number): Promise<Page<R>> {
  const total = await count();
  return { total, rows: limit === 0 ? [] : await read() };
}

/** The statement's values of a keyset page: the filter's, the limit, then the position when there is one. */
export const keysetValues = (params: unknown[], after: PagePosition | null, limit: number): unknown[] =>
  after ? [...params, limit, after.createdUs, after.id] : [...params, limit];
