import { Body, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Doc, type ErrorSpec } from '../../api-docs/decorators';
import type { NamedSchema } from '../../api-docs/response-schema';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import type { ListQuery } from './list-query';
import type { Projection } from './projection';
import { ListParams, ProjectionParams, SearchParams } from './scim-request';
import { sendLocation } from './scim-response';
import { filterAndPage, ScimCreateRoute, ScimGetRoute, ScimListRoute, ScimReplaceRoute, ScimSearchRoute } from './scim-routes';

/**
 * The routes the SCIM Users and Groups collections share (decision 1032): list, create, search, get
 * and replace, each the same handler on its own service. The controller names its resource, its
 * schemas, its body and its errors, and writes the routes where the two differ (PATCH, DELETE).
 * Each call makes a class of its own, so each collection's OpenAPI metadata is its own. The handlers
 * are the ones the controllers had: no interceptor, no pipe, nothing more per request.
 */

/** The summary and the description of a route, as `Doc` takes them. */
type RouteDoc = readonly [summary: string, description: string];

export interface ScimResourceRoutesSpec {
  /** The resource's name in the documented answers and summaries ("user", "group"); its collection is "Users", "Groups". */
  kind: string;
  resource: NamedSchema<unknown>;
  list: NamedSchema<unknown>;
  /** The documented request body of create and replace (`ScimBody(…)`). */
  body: MethodDecorator;
  /** The resource's 400 `invalidValue`. */
  invalid: ErrorSpec;
  /** The resource's 409 `uniqueness` on replace, and on create unless `createConflict` says it otherwise. */
  taken: ErrorSpec;
  createConflict?: ErrorSpec;
  /** The filter of the `.search` example. */
  searchFilter: string;
  /** The create route's description: what creating one does differs by resource. */
  createDoc: string;
}

/** The documentation the collections share, in the collection's words. */
function docsOf({ kind, createDoc }: ScimResourceRoutesSpec): Record<'list' | 'create' | 'search' | 'get' | 'replace', RouteDoc> {
  const kinds = `${kind}s`;
  const collection = `${kind[0].toUpperCase()}${kinds.slice(1)}`;
  return {
    list: [
      `List ${kinds}`,
      `Pages through the ${kinds} of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).`,
    ],
    create: [`Create a ${kind}`, createDoc],
    search: [
      `Search ${kinds} (POST)`,
      `RFC 7644 §3.4.3: the same as GET /scim/v2/${collection} with the parameters in a SearchRequest body (useful when a filter is too long for a URL).`,
    ],
    get: [`Get a ${kind}`, `One ${kind} of the token's workspace; attributes / excludedAttributes shape the answer.`],
    replace: [`Replace a ${kind}`, 'Sets the attributes sent; attributes not sent keep their value (decision 0102).'],
  };
}

type Json = Record<string, unknown>;

/** What a collection's service answers; ScimUsersService and ScimGroupsService both do. */
export interface ScimResourceService {
  list(workspaceId: string, query: ListQuery): Promise<Json>;
  get(workspaceId: string, id: string, projection: Projection): Promise<Json>;
  create(actor: ScimPrincipal, body: unknown, request: RequestMeta): Promise<Json>;
  replace(actor: ScimPrincipal, id: string, body: unknown, request: RequestMeta, projection: Projection): Promise<Json>;
}

/** `class ScimXController extends ScimResourceRoutes({ … })`: its constructor hands in `resources`. */
export function ScimResourceRoutes(spec: ScimResourceRoutesSpec) {
  const { kind, resource, list, body, invalid, taken } = spec;
  const docs = docsOf(spec);

  abstract class Routes {
    protected abstract readonly resources: ScimResourceService;

    @Doc(...docs.list)
    @ScimListRoute(list)
    list(@CurrentPrincipal() p: ScimPrincipal, @ListParams() query: ListQuery) {
      return this.resources.list(p.workspaceId, query);
    }

    @Doc(...docs.create)
    @ScimCreateRoute(resource, kind, body, invalid, spec.createConflict ?? taken)
    async create(
      @CurrentPrincipal() p: ScimPrincipal,
      @Body() body: unknown,
      @ReqMeta() meta: RequestMeta,
      @Res({ passthrough: true }) res: Response,
    ) {
      return sendLocation(res, await this.resources.create(p, body, meta));
    }

    @Doc(...docs.search)
    @ScimSearchRoute(list, 'A ListResponse', filterAndPage(spec.searchFilter))
    search(@CurrentPrincipal() p: ScimPrincipal, @SearchParams() query: ListQuery) {
      return this.resources.list(p.workspaceId, query);
    }

    @Doc(...docs.get)
    @ScimGetRoute(resource, kind)
    get(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ProjectionParams() projection: Projection) {
      return this.resources.get(p.workspaceId, id, projection);
    }

    @Doc(...docs.replace)
    @ScimReplaceRoute(resource, kind, body, invalid, taken)
    replace(
      @CurrentPrincipal() p: ScimPrincipal,
      @Param('id') id: string,
      @Body() body: unknown,
      @ProjectionParams() projection: Projection,
      @ReqMeta() meta: RequestMeta,
    ) {
      return this.resources.replace(p, id, body, meta, projection);
    }
  }
  return Routes;
}
