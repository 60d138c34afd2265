import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { ExampleObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { type NamedSchema, ref as refTo } from './response-schema';
import { ErrorSchema, ScimErrorSchema } from './schemas';

/**
 * Decorators that document an operation in a few lines: what it does, what it answers
 * (with the body's schema and an example), and the errors it really returns. Errors are
 * given as [status, code, when]; the body is the JSON error body, or RFC 7644's on SCIM.
 * The ones every route of a kind shares (401, CSRF, invalid JSON, validation) are added to
 * the whole document by buildOpenApiDocument, so a route lists only its own.
 */

const JSON_TYPE = 'application/json';
const ref = (named: NamedSchema<unknown>) => refTo(named) as SchemaObject;
const SCIM_TYPE = 'application/scim+json';

/** Summary (a short imperative line) and description (what, who may, what to know). */
export const Doc = (summary: string, description: string) => ApiOperation({ summary, description });

interface ReturnsOptions {
  /** Wrap the schema as {results: [...]}. */
  list?: boolean;
  /** Bare array of the schema. */
  array?: boolean;
  example?: unknown;
  headers?: Record<string, { description: string; schema: SchemaObject }>;
}

function bodySchema(named: NamedSchema<unknown>, opts: ReturnsOptions): SchemaObject {
  if (opts.list) return { type: 'object', required: ['results'], properties: { results: { type: 'array', items: ref(named) } } };
  if (opts.array) return { type: 'array', items: ref(named) };
  return ref(named);
}

/** A success answer with a JSON body of the named schema. */
export function Returns(status: number, named: NamedSchema<unknown>, description: string, opts: ReturnsOptions = {}) {
  return ApiResponse({
    status,
    description,
    headers: opts.headers,
    content: { [JSON_TYPE]: { schema: bodySchema(named, opts), ...(opts.example !== undefined ? { example: opts.example } : {}) } },
  });
}

/** A success answer with a SCIM body (application/scim+json). */
export function ScimReturns(status: number, named: NamedSchema<unknown>, description: string, opts: ReturnsOptions = {}) {
  return ApiResponse({
    status,
    description,
    headers: opts.headers,
    content: { [SCIM_TYPE]: { schema: ref(named), ...(opts.example !== undefined ? { example: opts.example } : {}) } },
  });
}

/** An answer without a body (204, redirects). */
export const NoBody = (status: number, description: string, headers?: ReturnsOptions['headers']) =>
  ApiResponse({ status, description, headers });

/** A non-JSON success body (HTML, XML, NDJSON). */
export function ReturnsText(status: number, contentType: string, description: string, example?: string) {
  return applyDecorators(
    ApiProduces(contentType),
    ApiResponse({ status, description, content: { [contentType]: { schema: { type: 'string' }, ...(example ? { example } : {}) } } }),
  );
}

export type ErrorSpec = [status: number, code: string, when: string];

function grouped(specs: ErrorSpec[]): Map<number, ErrorSpec[]> {
  const byStatus = new Map<number, ErrorSpec[]>();
  for (const spec of specs) byStatus.set(spec[0], [...(byStatus.get(spec[0]) ?? []), spec]);
  return byStatus;
}

/** Errors in the JSON error body {error, message, details?}; one example per code. */
export function Errors(...specs: ErrorSpec[]) {
  return applyDecorators(
    ...[...grouped(specs)].map(([status, list]) => {
      const examples: Record<string, ExampleObject> = {};
      for (const [, code, when] of list) {
        const key = examples[code] ? `${code}_${Object.keys(examples).length}` : code;
        examples[key] = { summary: when, value: { error: code, message: when } };
      }
      return ApiResponse({
        status,
        description: list.map(([, code, when]) => `\`${code}\`: ${when}`).join('; '),
        headers: status === 429 ? RETRY_AFTER : undefined,
        content: { [JSON_TYPE]: { schema: ref(ErrorSchema), examples } },
      });
    }),
  );
}

/** Errors in the SCIM error body (RFC 7644 §3.12); code is the scimType, or '' when there is none. */
export function ScimErrors(...specs: ErrorSpec[]) {
  return applyDecorators(
    ...[...grouped(specs)].map(([status, list]) => {
      const examples: Record<string, ExampleObject> = {};
      for (const [, scimType, when] of list) {
        const key = scimType || `status${status}`;
        examples[examples[key] ? `${key}_${Object.keys(examples).length}` : key] = {
          summary: when,
          value: {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
            status: String(status),
            ...(scimType ? { scimType } : {}),
            detail: when,
          },
        };
      }
      return ApiResponse({
        status,
        description: list.map(([, scimType, when]) => (scimType ? `\`${scimType}\`: ${when}` : when)).join('; '),
        content: { [SCIM_TYPE]: { schema: ref(ScimErrorSchema), examples } },
      });
    }),
  );
}

export const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } as SchemaObject },
};

/** A SCIM request body (application/scim+json; application/json is accepted too). */
export function ScimBody(named: NamedSchema<unknown>, description: string, examples: Record<string, ExampleObject>) {
  return applyDecorators(ApiConsumes(SCIM_TYPE, JSON_TYPE), ApiBody({ description, required: true, schema: ref(named), examples }));
}

/** The RFC 7644 §3.4.2 list parameters and §3.4.2.5 projection of SCIM collections. */
export function ScimListQuery() {
  return applyDecorators(
    ApiQuery({
      name: 'filter',
      required: false,
      description:
        'RFC 7644 filter: eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, parentheses. Attribute names are case-insensitive. A filter the server cannot read is 400 `invalidFilter`.',
      schema: { type: 'string', maxLength: 4096 },
      example: 'userName eq "ada@example.com"',
    }),
    ApiQuery({
      name: 'startIndex',
      required: false,
      description: '1-based index of the first result; below 1 reads as 1.',
      schema: { type: 'integer', default: 1 },
    }),
    ApiQuery({
      name: 'count',
      required: false,
      description: 'Page size: default 100, clamped to 0..200; 0 returns only totalResults.',
      schema: { type: 'integer', default: 100, minimum: 0 },
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      description:
        'RFC 9865 cursor paging instead of startIndex: empty for the first page, then the nextCursor of the previous answer (absent on the last page). With startIndex: 400 `invalidValue`; a cursor the server did not issue: 400 `invalidCursor`.',
      schema: { type: 'string', maxLength: 200 },
    }),
    ScimProjectionQuery(),
    // Node's HTTP parser refuses a request line and headers over 16 KiB before routing, so the body is the
    // service's JSON error (client-error.ts), not a SCIM one; a long filter belongs in a POST /.search body.
    Errors([
      431,
      'headers_too_large',
      'The request line and headers exceed 16 KiB (a very long filter or attribute list in the URL); send the query as POST …/.search',
    ]),
  );
}

/** RFC 7644 §3.4.2.5: attributes / excludedAttributes on any read or write that returns a resource. */
export function ScimProjectionQuery() {
  return applyDecorators(
    ApiQuery({
      name: 'attributes',
      required: false,
      description: 'Comma-separated attributes to return (id and schemas always are).',
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'excludedAttributes',
      required: false,
      description: 'Comma-separated attributes to leave out.',
      schema: { type: 'string' },
    }),
  );
}

/**
 * A route that answers 204 with no body: its verb and path (`Delete(':id')`, `Post('verify')`), the 204's
 * description and the route's errors, in one line instead of four (decision 0971).
 */
export function NoContentRoute(route: MethodDecorator, description: string, ...errors: ErrorSpec[]) {
  return applyDecorators(NoBody(204, description), ...(errors.length > 0 ? [Errors(...errors)] : []), route, HttpCode(204));
}
