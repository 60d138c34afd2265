import { checkSchemas, getCI, isObject } from '../patch/normalize';
import { ScimError } from '../scim.errors';
import { ListQuery, readListQuery } from './list-query';

export const SEARCH_REQUEST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/**
 * The body of POST …/.search (RFC 7644 §3.4.3) read into the same ListQuery as GET's query
 * string, so both go through one filter parser, one paging rule and one projection:
 * `filter`, `startIndex` or `cursor` (RFC 9865), `count`, `attributes` and `excludedAttributes` (arrays of names, or
 * one comma-separated string). `sortBy`/`sortOrder` are ignored as on GET (sorting is not
 * supported, /ServiceProviderConfig says so); `schemas`, when sent, must name SearchRequest (checkSchemas).
 */
export function readSearchRequest(body: unknown): ListQuery {
  if (body === undefined || body === null) return readListQuery({});
  if (!isObject(body)) throw new ScimError('invalidSyntax', `the body must be a SearchRequest JSON object (${SEARCH_REQUEST_SCHEMA})`);
  checkSchemas(body, SEARCH_REQUEST_SCHEMA);
  const query: Record<string, string> = {};
  const filter = getCI(body, 'filter');
  if (filter !== undefined && filter !== null) {
    if (typeof filter !== 'string') throw new ScimError('invalidFilter', 'filter must be a string');
    query.filter = filter;
  }
  const cursor = getCI(body, 'cursor');
  if (cursor !== undefined && cursor !== null) {
    if (typeof cursor !== 'string') throw new ScimError('invalidValue', 'cursor must be a string');
    query.cursor = cursor;
  }
  for (const name of ['startIndex', 'count']) {
    const v = getCI(body, name);
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' && typeof v !== 'string') throw new ScimError('invalidValue', `${name} must be an integer`);
    query[name] = String(v);
  }
  for (const name of ['attributes', 'excludedAttributes']) {
    const v = getCI(body, name);
    if (v === undefined || v === null) continue;
    const names = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;
    if (!names || !names.every((n) => typeof n === 'string')) {
      throw new ScimError('invalidValue', `${name} must be an array of attribute names`);
    }
    query[name] = names.join(',');
  }
  return readListQuery(query);
}
