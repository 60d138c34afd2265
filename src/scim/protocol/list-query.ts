import { FilterNode } from '../filter/ast';
import { parseFilter } from '../filter/parser';
import { LIST_RESPONSE_SCHEMA } from '../scim.constants';
import { ScimError } from '../scim.errors';
import { Cursor, decodeCursor, encodeCursor, PagePosition } from './cursor';
import { Projection, readProjection } from './projection';

export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 200;

export interface ListQuery {
  filter?: FilterNode;
  /** 1-based (RFC 7644 §3.4.2.4). */
  startIndex: number;
  count: number;
  projection: Projection;
  /** RFC 9865 cursor paging instead of startIndex (the `cursor` parameter was sent, even empty). */
  cursor?: Cursor;
}

/**
 * Reads the list query parameters (names are case-insensitive): count defaults to
 * 100 and is clamped to 0..200; startIndex below 1 is 1 (RFC 7644 §3.4.2.4).
 */
export function readListQuery(query: Record<string, unknown>): ListQuery {
  const get = (name: string) => single(Object.entries(query).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]);
  const filterText = get('filter');
  const count = readInt(get('count'), 'count') ?? DEFAULT_COUNT;
  const startText = get('startIndex');
  const startIndex = readInt(startText, 'startIndex') ?? 1;
  const cursorText = get('cursor');
  if (cursorText !== undefined && startText !== undefined) {
    throw new ScimError('invalidValue', 'send either startIndex (index paging) or cursor (cursor paging, RFC 9865), not both');
  }
  return {
    ...(filterText !== undefined && filterText.trim() !== '' ? { filter: parseFilter(filterText) } : {}),
    ...(cursorText !== undefined ? { cursor: decodeCursor(cursorText.trim()) } : {}),
    count: Math.min(Math.max(count, 0), MAX_COUNT),
    startIndex: Math.max(startIndex, 1),
    projection: readProjection(get('attributes'), get('excludedAttributes')),
  };
}

export function listResponse(total: number, startIndex: number, resources: unknown[]): Record<string, unknown> {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/**
 * A ListResponse of cursor paging (RFC 9865 §3.2): no startIndex; nextCursor when another page
 * follows (the repository read one row more than the page to know).
 */
export function cursorListResponse(total: number, resources: unknown[], next: PagePosition | null): Record<string, unknown> {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: total,
    itemsPerPage: resources.length,
    ...(next ? { nextCursor: encodeCursor(next) } : {}),
    Resources: resources,
  };
}

function single(value: unknown): string | undefined {
  if (Array.isArray(value)) return single(value[0]);
  return typeof value === 'string' ? value : undefined;
}

function readInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^[+-]?\d+$/.test(value.trim())) throw new ScimError('invalidValue', `${name} must be an integer, not ${JSON.stringify(value)}`);
  // Clamp before Number() so a huge value cannot become Infinity or lose meaning.
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : n > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}
