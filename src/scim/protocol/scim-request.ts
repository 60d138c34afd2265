import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { type ListQuery, readListQuery } from './list-query';
import { type Projection, readProjectionQuery } from './projection';
import { readSearchRequest } from './search-request';

/**
 * What a SCIM route reads from its request, read once here so a handler takes the typed value: a
 * parameter it cannot read is the SCIM 400 (invalidFilter, invalidValue) before the handler runs,
 * answered by the controller's SCIM error surface like any error of the route.
 */
const requestOf = (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>();
const queryOf = (ctx: ExecutionContext) => requestOf(ctx).query as Record<string, unknown>;

/** `GET <collection>`: filter, paging (index or cursor) and projection (RFC 7644 §3.4.2). */
export const ListParams = createParamDecorator((_: unknown, ctx: ExecutionContext): ListQuery => readListQuery(queryOf(ctx)));

/** `POST <collection>/.search`: the same, from a SearchRequest body (RFC 7644 §3.4.3). */
export const SearchParams = createParamDecorator((_: unknown, ctx: ExecutionContext): ListQuery => readSearchRequest(requestOf(ctx).body));

/** attributes / excludedAttributes of a route that answers one resource (RFC 7644 §3.4.2.5). */
export const ProjectionParams = createParamDecorator((_: unknown, ctx: ExecutionContext): Projection => readProjectionQuery(queryOf(ctx)));
