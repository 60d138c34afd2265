import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import type { ExampleObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { type ErrorSpec, NoBody, ScimBody, ScimErrors, ScimListQuery, ScimProjectionQuery, ScimReturns } from '../../api-docs/decorators';
import type { NamedSchema } from '../../api-docs/response-schema';
import { ScimPatchRequestSchema, ScimSearchRequestSchema } from './protocol.schemas';
import { ScimJson } from './scim-response';

/**
 * The routes of a SCIM resource collection (RFC 7644 §3): each composite names the route, its
 * SCIM answer and the errors every collection shares, so a controller adds only its Doc, its
 * resource's body and the errors of its own attributes (decision 0968).
 */

/** The 404 of a route that names a resource by id. */
const notFound = (kind: string): ErrorSpec => [404, '', `No ${kind} with this id in the token's workspace`];

/** `GET <collection>` (RFC 7644 §3.4.2): list parameters, a ListResponse, and the filter error. */
export const ScimListRoute = (list: NamedSchema<unknown>) =>
  applyDecorators(
    ScimListQuery(),
    ScimReturns(200, list, 'A ListResponse'),
    ScimErrors([400, 'invalidFilter', 'The filter cannot be parsed or names an unsupported attribute']),
    ScimJson(),
    Get(),
  );

/**
 * `POST <collection>/.search` (RFC 7644 §3.4.3): the route, its SearchRequest body and its
 * ListResponse answer, documented with the errors every search shares. The caller adds its Doc.
 */
export function ScimSearchRoute(list: NamedSchema<unknown>, answer: string, examples: Record<string, ExampleObject>) {
  return applyDecorators(
    ScimBody(ScimSearchRequestSchema, 'SearchRequest', examples),
    ScimReturns(200, list, answer),
    ScimErrors(
      [400, 'invalidFilter', 'The filter cannot be parsed or names an unsupported attribute'],
      [400, 'invalidValue', 'startIndex/count not integers, or attributes not attribute names'],
    ),
    ScimJson(),
    Post('.search'),
    HttpCode(200),
  );
}

/** The example of a collection's `.search`: a filter, with the first page of ten. */
export const filterAndPage = (filter: string): Record<string, ExampleObject> => ({
  page: {
    summary: 'Filter and page',
    value: { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], filter, startIndex: 1, count: 10 },
  },
});

/** An example of a PATCH body: a PatchOp message with these operations (RFC 7644 §3.5.2). */
export const patchOpExample = (summary: string, ...operations: Record<string, unknown>[]): ExampleObject => ({
  summary,
  value: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations },
});

/** `GET path` of a discovery document (RFC 7644 §4): the SCIM JSON answer, and its 404 where it names one. */
export const ScimDocumentRoute = (path: string, doc: NamedSchema<unknown>, answer: string, ...errors: ErrorSpec[]) =>
  applyDecorators(ScimReturns(200, doc, answer), ...(errors.length > 0 ? [ScimErrors(...errors)] : []), ScimJson(), Get(path));

/** 201 with the new resource, its meta.location also in the Location header. */
export const ScimCreated = (resource: NamedSchema<unknown>, kind: string) =>
  ScimReturns(201, resource, 'Created', {
    headers: { Location: { description: `meta.location of the new ${kind}`, schema: { type: 'string' } } },
  });

/** `POST <collection>`: the resource's body, 201 with Location (the handler sets it: see sendLocation), and the resource's own errors. */
export const ScimCreateRoute = (resource: NamedSchema<unknown>, kind: string, body: MethodDecorator, ...errors: ErrorSpec[]) =>
  applyDecorators(body, ScimCreated(resource, kind), ScimErrors(...errors), ScimJson(), Post());

/** `GET <collection>/:id`, shaped by attributes / excludedAttributes. */
export const ScimGetRoute = (resource: NamedSchema<unknown>, kind: string) =>
  applyDecorators(ScimProjectionQuery(), ScimReturns(200, resource, `The ${kind}`), ScimErrors(notFound(kind)), ScimJson(), Get(':id'));

/** `PUT <collection>/:id`: the resource's body and errors (invalidValue, uniqueness) beside the 404. */
export const ScimReplaceRoute = (
  resource: NamedSchema<unknown>,
  kind: string,
  body: MethodDecorator,
  invalid: ErrorSpec,
  conflict: ErrorSpec,
) =>
  applyDecorators(
    ScimProjectionQuery(),
    body,
    ScimReturns(200, resource, `The replaced ${kind}`),
    ScimErrors(invalid, notFound(kind), conflict),
    ScimJson(),
    Put(':id'),
  );

interface PatchAnswer {
  /** The 200's description. */
  answer: string;
  /** A 204 the route may answer instead (its description). */
  noContent?: string;
}

/** `PATCH <collection>/:id` (RFC 7644 §3.5.2): a PatchOp body and the errors every PATCH shares. */
export const ScimPatchRoute = (
  resource: NamedSchema<unknown>,
  kind: string,
  examples: Record<string, ExampleObject>,
  { answer, noContent }: PatchAnswer,
  invalid: ErrorSpec,
  conflict: ErrorSpec,
) =>
  applyDecorators(
    ScimProjectionQuery(),
    ScimBody(ScimPatchRequestSchema, 'PatchOp', examples),
    ScimReturns(200, resource, answer),
    ...(noContent ? [NoBody(204, noContent)] : []),
    ScimErrors(
      invalid,
      [400, 'invalidPath', 'The path cannot be read or names an unknown attribute'],
      [400, 'invalidSyntax', 'No Operations array, or an op other than add, replace or remove'],
      [400, 'noTarget', 'A remove without a path'],
      [400, 'mutability', 'The operation removes a required attribute (userName, displayName)'],
      notFound(kind),
      conflict,
    ),
    ScimJson(),
    Patch(':id'),
  );

/** `DELETE <collection>/:id`: 204, or the 404. */
export const ScimDeleteRoute = (kind: string) =>
  applyDecorators(NoBody(204, 'Done'), ScimErrors(notFound(kind)), ScimJson(), Delete(':id'), HttpCode(204));
