import { ScimError } from '../scim.errors';

/** Which list a cursor walks: /Users ('u') or /Groups ('g'); /.search walks users, then groups. */
export type CursorKind = 'u' | 'g';

/**
 * A position in a list (RFC 9865): after the resource created at `createdUs` (microseconds since the
 * epoch, exact: node-postgres would round a timestamptz to milliseconds) with this id, in the lists'
 * order (created_at, id). Keyset paging: a resource created or deleted while a client walks never
 * shifts the others, so each resource that exists throughout the walk is returned exactly once.
 */
export interface PagePosition {
  kind: CursorKind;
  createdUs: string;
  id: string;
}

/** `start` for the empty cursor (the first page). */
export type Cursor = { start: true } | ({ start: false } & PagePosition);

const SHAPE = /^([ug]):(\d{1,20})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const MAX_CURSOR_CHARS = 200;

export function encodeCursor(p: PagePosition): string {
  return Buffer.from(`${p.kind}:${p.createdUs}.${p.id}`, 'utf8').toString('base64url');
}

/** The cursor a client sent back ('' starts); anything we did not issue is 400 invalidCursor (RFC 9865 §3.3). */
export function decodeCursor(value: string): Cursor {
  if (value === '') return { start: true };
  const text = value.length <= MAX_CURSOR_CHARS && /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').toString('utf8') : '';
  const m = SHAPE.exec(text);
  if (!m) throw new ScimError('invalidCursor', 'cursor is not one this server issued (start with an empty cursor)');
  return { start: false, kind: m[1] as CursorKind, createdUs: m[2], id: m[3] };
}

/** The position to read after, for a list of `kind`; a cursor of the other list is invalidCursor. */
export function positionFor(cursor: Cursor, kind: CursorKind): PagePosition | null {
  if (cursor.start) return null;
  if (cursor.kind !== kind) throw new ScimError('invalidCursor', 'cursor belongs to another resource list');
  return cursor;
}
