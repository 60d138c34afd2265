import { COMMON_ERRORS } from './common.errors';
import { DomainError } from './errors';
import { isUuid } from './ids';

/**
 * The opaque `next_cursor` of a list read in (sort key, id) order, as the developer directory's
 * people (by email) and groups (by name) are: base64url of [key, id].
 */
export function encodeKeysetCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/** The (key, id) a cursor of encodeKeysetCursor holds; validation_failed for anything else. */
export function decodeKeysetCursor(cursor: string): { key: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && isUuid(value[1])) {
      return { key: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw new DomainError(COMMON_ERRORS.validation_failed, 'cursor is not a next_cursor this API gave', {
    details: { cursor: ['must be the next_cursor of a previous page'] },
  });
}
