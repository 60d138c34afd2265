import { Doc, type ErrorSpec } from '../../api-docs/decorators';
import { Body, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import type { ListQuery } from '../protocol/list-query';
import type { Projection } from '../protocol/projection';
import { ListParams, ProjectionParams, SearchParams } from '../protocol/scim-request';
import { sendLocation } from '../protocol/scim-response';
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
  filterAndPage,
  patchOpExample,
} from '../protocol/scim-routes';
import { ScimApi } from '../../common/controller-kinds';

const INVALID: ErrorSpec = [400, 'invalidValue', 'displayName missing or empty, or members not an array'];
const TAKEN: ErrorSpec = [409, 'uniqueness', 'displayName is already taken in the workspace'];

@ScimApi('scim/v2/Groups')
export class ScimGroupsController {
  constructor(private readonly groups: ScimGroupsService) {}

  @Doc('List groups', "Pages through the groups of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).")
  @ScimListRoute(ScimGroupListSchema)
  list(@CurrentPrincipal() p: ScimPrincipal, @ListParams() query: ListQuery) {
    return this.groups.list(p.workspaceId, query);
  }

  @Doc('Create a group', "Creates a group in the token's workspace; Location names it. Unknown attributes are ignored.")
  @ScimCreateRoute(ScimGroupSchema, 'group', ScimGroupBody(), INVALID, TAKEN)
  async create(
    @CurrentPrincipal() p: ScimPrincipal,
    @Body() body: unknown,
    @ReqMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ) {
    return sendLocation(res, await this.groups.create(p, body, meta));
  }

  /** POST /Groups/.search (RFC 7644 §3.4.3): the list, with its parameters in the body. Before ':id' routes. */
  @Doc(
    'Search groups (POST)',
    'RFC 7644 §3.4.3: the same as GET /scim/v2/Groups with the parameters in a SearchRequest body (useful when a filter is too long for a URL).',
  )
  @ScimSearchRoute(ScimGroupListSchema, 'A ListResponse', filterAndPage('displayName eq "Engineering"'))
  search(@CurrentPrincipal() p: ScimPrincipal, @SearchParams() query: ListQuery) {
    return this.groups.list(p.workspaceId, query);
  }

  @Doc('Get a group', "One group of the token's workspace; attributes / excludedAttributes shape the answer.")
  @ScimGetRoute(ScimGroupSchema, 'group')
  get(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ProjectionParams() projection: Projection) {
    return this.groups.get(p.workspaceId, id, projection);
  }

  @Doc('Replace a group', 'Sets the attributes sent; attributes not sent keep their value (decision 0102).')
  @ScimReplaceRoute(ScimGroupSchema, 'group', ScimGroupBody(), INVALID, TAKEN)
  replace(
    @CurrentPrincipal() p: ScimPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @ProjectionParams() projection: Projection,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.groups.replace(p, id, body, meta, projection);
  }

  @Doc(
    'Patch a group',
    'Applies RFC 7644 §3.5.2 operations in order, all or nothing. Answers 204 No Content, or 200 with the group when the query has attributes or excludedAttributes (decision 0133).',
  )
  @ScimPatchRoute(
    ScimGroupSchema,
    'group',
    {
      addMember: patchOpExample('Add a member', { op: 'add', path: 'members', value: [{ value: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' }] }),
      removeMember: patchOpExample('Remove a member', { op: 'remove', path: 'members[value eq "3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11"]' }),
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
    @ProjectionParams() projection: Projection,
    @ReqMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ) {
    const group = await this.groups.patch(p, id, body, meta, projection);
    if (group === undefined) res.status(204);
    return group;
  }

  @Doc('Delete a group', 'Deletes the group; its members stay.')
  @ScimDeleteRoute('group')
  remove(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.groups.delete(p, id, meta);
  }
}
