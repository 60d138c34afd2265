import { Body, Param } from '@nestjs/common';
import { Doc, type ErrorSpec } from '../../api-docs/decorators';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ScimApi } from '../../common/controller-kinds';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import type { Projection } from '../protocol/projection';
import { ScimResourceRoutes } from '../protocol/scim-resource-routes';
import { ProjectionParams } from '../protocol/scim-request';
import { ScimDeleteRoute, ScimPatchRoute, patchOpExample } from '../protocol/scim-routes';
import { ScimUsersService } from './scim-users.service';
import { ScimUserBody, ScimUserListSchema, ScimUserSchema } from './user.schemas';

const INVALID: ErrorSpec = [400, 'invalidValue', 'userName missing, an email not valid, or a value of the wrong type'];
const TAKEN: ErrorSpec = [409, 'uniqueness', 'userName (email) is already taken in the workspace'];

/** SCIM Users: list, create, search, get and replace as every collection has them; PATCH and DELETE below. */
@ScimApi('scim/v2/Users')
export class ScimUsersController extends ScimResourceRoutes({
  kind: 'user',
  resource: ScimUserSchema,
  list: ScimUserListSchema,
  body: ScimUserBody(),
  invalid: INVALID,
  taken: TAKEN,
  createConflict: [409, 'uniqueness', 'userName (email) is already taken by an active user of the workspace'],
  searchFilter: 'userName sw "ada"',
  createDoc:
    "Creates a user in the token's workspace; Location names it. Unknown attributes are ignored. When the userName (or primary email) belongs to a deactivated user of the workspace, that user is reactivated instead: the same id, 201, its attributes replaced as by PUT (how Okta and Entra re-provision a person they removed).",
}) {
  constructor(protected readonly resources: ScimUsersService) {
    super();
  }

  @Doc('Patch a user', 'Applies RFC 7644 §3.5.2 operations in order, all or nothing.')
  @ScimPatchRoute(
    ScimUserSchema,
    'user',
    {
      deactivate: patchOpExample('Deactivate (Okta, Entra)', { op: 'replace', path: 'active', value: false }),
      rename: patchOpExample('Change the name', { op: 'replace', value: { 'name.givenName': 'Augusta', 'name.familyName': 'King' } }),
    },
    { answer: 'The patched user' },
    INVALID,
    TAKEN,
  )
  patch(
    @CurrentPrincipal() p: ScimPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @ProjectionParams() projection: Projection,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.resources.patch(p, id, body, meta, projection);
  }

  @Doc(
    'Delete a user',
    'Deactivates the user (active=false) and signs them out everywhere; the user stays readable, as Okta and Entra expect.',
  )
  @ScimDeleteRoute('user')
  deactivate(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.resources.deactivate(p, id, meta);
  }
}
