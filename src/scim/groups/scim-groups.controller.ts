import { Doc, type ErrorSpec } from '../../api-docs/decorators';
import { Body, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { readListQuery } from '../protocol/list-query';
import { readProjectionQuery } from '../protocol/projection';
import { readSearchRequest } from '../protocol/search-request';
import { ScimGroupsService } from './scim-groups.service';
import { ScimGroupBody, ScimGroupListSchema, ScimGroupSchema } from './group.schemas';
import {
  ScimCreateRoute,
  ScimDeleteRoute,
  ScimGetRoute,
  ScimListRoute,
  ScimPatchRoute,
  ScimReplaceRoute,
  ScimSearchRoute,
} from '../protocol/scim-routes';
import { ScimApi } from '../../common/controller-kinds';

type QueryParams = Record<string, unknown>;

const INVALID: ErrorSpec = [400, 'invalidValue', 'displayName missing or empty, or members not an array'];
const TAKEN: ErrorSpec = [409, 'uniqueness', 'displayName is already taken in the workspace'];

@ScimApi('scim/v2/Groups')
export class ScimGroupsController {
  constructor(private readonly groups: ScimGroupsService) {}

  @Doc('List groups', "Pages through the groups of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).")
  @ScimListRoute(ScimGroupListSchema)
  list(@CurrentPrincipal() p: ScimPrincipal, @Query() query: QueryParams) {
    return this.groups.list(p.workspaceId, readListQuery(query));
  }

  @Doc('Create a group', "Creates a group in the token's workspace; Location names it. Unknown attributes are ignored.")
  @ScimCreateRoute(ScimGroupSchema, 'group', ScimGroupBody(), INVALID, TAKEN)
  async create(
    @CurrentPrincipal() p: ScimPrincipal,
    @Body() body: unknown,
    @ReqMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ) {
    const group = await this.groups.create(p, body, meta);
    res.location((group.meta as { location: string }).location);
    return group;
  }

  /** POST /Groups/.search (RFC 7644 §3.4.3): the list, with its parameters in the body. Before ':id' routes. */
  @Doc(
    'Search groups (POST)',
    'RFC 7644 §3.4.3: the same as GET /scim/v2/Groups with the parameters in a SearchRequest body (useful when a filter is too long for a URL).',
  )
  @ScimSearchRoute(ScimGroupListSchema, 'A ListResponse', {
    page: {
      summary: 'Filter and page',
      value: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: 'displayName eq "Engineering"',
        startIndex: 1,
        count: 10,
      },
    },
  })
  search(@CurrentPrincipal() p: ScimPrincipal, @Body() body: unknown) {
    return this.groups.list(p.workspaceId, readSearchRequest(body));
  }

  @Doc('Get a group', "One group of the token's workspace; attributes / excludedAttributes shape the answer.")
  @ScimGetRoute(ScimGroupSchema, 'group')
  get(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @Query() query: QueryParams) {
    return this.groups.get(p.workspaceId, id, readProjectionQuery(query));
  }

  @Doc('Replace a group', 'Sets the attributes sent; attributes not sent keep their value (decision 0102).')
  @ScimReplaceRoute(ScimGroupSchema, 'group', ScimGroupBody(), INVALID, TAKEN)
  replace(
    @CurrentPrincipal() p: ScimPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query() query: QueryParams,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.groups.replace(p, id, body, meta, readProjectionQuery(query));
  }

  @Doc(
    'Patch a group',
    'Applies RFC 7644 §3.5.2 operations in order, all or nothing. Answers 204 No Content, or 200 with the group when the query has attributes or excludedAttributes (decision 0133).',
  )
  @ScimPatchRoute(
    ScimGroupSchema,
    'group',
    {
      addMember: {
        summary: 'Add a member',
        value: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'add', path: 'members', value: [{ value: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' }] }],
        },
      },
      removeMember: {
        summary: 'Remove a member',
        value: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'remove', path: 'members[value eq "3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11"]' }],
        },
      },
    },
    {
      answer: 'The patched group, shaped by attributes / excludedAttributes (only when either is given)',
      noContent: 'Done: the answer without attributes or excludedAttributes (no body; read the group with GET)',
    },
    INVALID,
    TAKEN,
  )
  async patch(
    @CurrentPrincipal() p: ScimPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query() query: QueryParams,
    @ReqMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ) {
    const group = await this.groups.patch(p, id, body, meta, readProjectionQuery(query));
    if (group === undefined) res.status(204);
    return group;
  }

  @Doc('Delete a group', 'Deletes the group; its members stay.')
  @ScimDeleteRoute('group')
  remove(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.groups.delete(p, id, meta);
  }
}
