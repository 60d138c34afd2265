import { Doc, NoBody, ScimBody, ScimErrors, ScimListQuery, ScimProjectionQuery, ScimReturns } from '../../api-docs/decorators';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth, CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { readListQuery } from '../protocol/list-query';
import { readProjectionQuery } from '../protocol/projection';
import { readSearchRequest } from '../protocol/search-request';
import { ScimJson } from '../protocol/scim-response';
import { ScimGroupsService } from './scim-groups.service';
import { ScimSurface } from '../../common/surface.decorators';
import { ScimGroupBody, ScimGroupListSchema, ScimGroupSchema } from './group.schemas';
import { ScimPatchRequestSchema } from '../protocol/protocol.schemas';
import { ScimCreated, ScimSearchRoute } from '../protocol/scim-routes';

type QueryParams = Record<string, unknown>;

@ApiTags('scim')
@ScimSurface()
@Controller('scim/v2/Groups')
@Auth('scim')
export class ScimGroupsController {
  constructor(private readonly groups: ScimGroupsService) {}

  @Doc('List groups', "Pages through the groups of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).")
  @ScimListQuery()
  @ScimReturns(200, ScimGroupListSchema, 'A ListResponse')
  @ScimErrors([400, 'invalidFilter', 'The filter cannot be parsed or names an unsupported attribute'])
  @ScimJson()
  @Get()
  list(@CurrentPrincipal() p: ScimPrincipal, @Query() query: QueryParams) {
    return this.groups.list(p.workspaceId, readListQuery(query));
  }

  @Doc('Create a group', "Creates a group in the token's workspace; Location names it. Unknown attributes are ignored.")
  @ScimGroupBody()
  @ScimCreated(ScimGroupSchema, 'group')
  @ScimErrors(
    [400, 'invalidValue', 'displayName missing or empty, or members not an array'],
    [409, 'uniqueness', 'displayName is already taken in the workspace'],
  )
  @ScimJson()
  @Post()
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
  @ScimProjectionQuery()
  @ScimReturns(200, ScimGroupSchema, 'The group')
  @ScimErrors([404, '', "No group with this id in the token's workspace"])
  @ScimJson()
  @Get(':id')
  get(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @Query() query: QueryParams) {
    return this.groups.get(p.workspaceId, id, readProjectionQuery(query));
  }

  @Doc('Replace a group', 'Sets the attributes sent; attributes not sent keep their value (decision 0102).')
  @ScimProjectionQuery()
  @ScimGroupBody()
  @ScimReturns(200, ScimGroupSchema, 'The replaced group')
  @ScimErrors(
    [400, 'invalidValue', 'displayName missing or empty, or members not an array'],
    [404, '', "No group with this id in the token's workspace"],
    [409, 'uniqueness', 'displayName is already taken in the workspace'],
  )
  @ScimJson()
  @Put(':id')
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
  @ScimProjectionQuery()
  @ScimBody(ScimPatchRequestSchema, 'PatchOp', {
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
  })
  @ScimReturns(200, ScimGroupSchema, 'The patched group, shaped by attributes / excludedAttributes (only when either is given)')
  @NoBody(204, 'Done: the answer without attributes or excludedAttributes (no body; read the group with GET)')
  @ScimErrors(
    [400, 'invalidValue', 'displayName missing or empty, or members not an array'],
    [400, 'invalidPath', 'The path cannot be read or names an unknown attribute'],
    [400, 'invalidSyntax', 'No Operations array, or an op other than add, replace or remove'],
    [400, 'noTarget', 'A remove without a path'],
    [400, 'mutability', 'The operation removes a required attribute (userName, displayName)'],
    [404, '', "No group with this id in the token's workspace"],
    [409, 'uniqueness', 'displayName is already taken in the workspace'],
  )
  @ScimJson()
  @Patch(':id')
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
  @NoBody(204, 'Done')
  @ScimErrors([404, '', "No group with this id in the token's workspace"])
  @ScimJson()
  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.groups.delete(p, id, meta);
  }
}
