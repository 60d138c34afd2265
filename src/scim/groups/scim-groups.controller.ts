import { Body, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Doc, type ErrorSpec } from '../../api-docs/decorators';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ScimApi } from '../../common/controller-kinds';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import type { Projection } from '../protocol/projection';
import { ScimResourceRoutes } from '../protocol/scim-resource-routes';
import { ProjectionParams } from '../protocol/scim-request';
import { ScimDeleteRoute, ScimPatchRoute, patchOpExample } from '../protocol/scim-routes';
import { ScimGroupsService } from './scim-groups.service';
import { ScimGroupBody, ScimGroupListSchema, ScimGroupSchema } from './group.schemas';

const INVALID: ErrorSpec = [400, 'invalidValue', 'displayName missing or empty, or members not an array'];
const TAKEN: ErrorSpec = [409, 'uniqueness', 'displayName is already taken in the workspace'];

/** SCIM Groups: list, create, search, get and replace as every collection has them; PATCH and DELETE below. */
@ScimApi('scim/v2/Groups')
export class ScimGroupsController extends ScimResourceRoutes({
  kind: 'group',
  resource: ScimGroupSchema,
  list: ScimGroupListSchema,
  body: ScimGroupBody(),
  invalid: INVALID,
  taken: TAKEN,
  searchFilter: 'displayName eq "Engineering"',
  createDoc: "Creates a group in the token's workspace; Location names it. Unknown attributes are ignored.",
}) {
  constructor(protected readonly resources: ScimGroupsService) {
    super();
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
    const group = await this.resources.patch(p, id, body, meta, projection);
    if (group === undefined) res.status(204);
    return group;
  }

  @Doc('Delete a group', 'Deletes the group; its members stay.')
  @ScimDeleteRoute('group')
  remove(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.resources.delete(p, id, meta);
  }
}
