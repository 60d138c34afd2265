import { applyDecorators, HttpCode, Post } from '@nestjs/common';
import type { ExampleObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ScimBody, ScimErrors, ScimReturns } from '../../api-docs/decorators';
import type { NamedSchema } from '../../api-docs/response-schema';
import { ScimSearchRequestSchema } from './protocol.schemas';
import { ScimJson } from './scim-response';

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

/** 201 with the new resource, its meta.location also in the Location header. */
export const ScimCreated = (resource: NamedSchema<unknown>, kind: string) =>
  ScimReturns(201, resource, 'Created', {
    headers: { Location: { description: `meta.location of the new ${kind}`, schema: { type: 'string' } } },
  });
