import { Doc, type ErrorSpec } from '../../api-docs/decorators';
import { Body, Param, Res } from '@nestjs/common';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import type { ListQuery } from '../protocol/list-query';
import type { Projection } from '../protocol/projection';
import { ListParams, ProjectionParams, SearchParams } from '../protocol/scim-request';
import type { Response } from 'express';
import { sendLocation } from '../protocol/scim-response';
import { ScimUsersService } from './scim-users.service';
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
import { ScimUserBody, ScimUserListSchema, ScimUserSchema } from './user.schemas';
import { ScimApi } from '../../common/controller-kinds';

const INVALID: ErrorSpec = [400, 'invalidValue', 'userName missing, an email not valid, or a value of the wrong type'];
const TAKEN: ErrorSpec = [409, 'uniqueness', 'userName (email) is already taken in the workspace'];

@ScimApi('scim/v2/Users')
export class ScimUsersController {
  constructor(private readonly users: ScimUsersService) {}

  @Doc('List users', "Pages through the users of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).")
  @ScimListRoute(ScimUserListSchema)
  list(@CurrentPrincipal() p: ScimPrincipal, @ListParams() query: ListQuery) {
    return this.users.list(p.workspaceId, query);
  }

  @Doc(
    'Create a user',
    "Creates a user in the token's workspace; Location names it. Unknown attributes are ignored. When the userName (or primary email) belongs to a deactivated user of the workspace, that user is reactivated instead: the same id, 201, its attributes replaced as by PUT (how Okta and Entra re-provision a person they removed).",
  )
  @ScimCreateRoute(ScimUserSchema, 'user', ScimUserBody(), INVALID, [
    409,
    'uniqueness',
    'userName (email) is already taken by an active user of the workspace',
  ])
  async create(
    @CurrentPrincipal() p: ScimPrincipal,
    @Body() body: unknown,
    @ReqMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ) {
    return sendLocation(res, await this.users.create(p, body, meta));
  }

  /** POST /Users/.search (RFC 7644 §3.4.3): the list, with its parameters in the body. Before ':id' routes. */
  @Doc(
    'Search users (POST)',
    'RFC 7644 §3.4.3: the same as GET /scim/v2/Users with the parameters in a SearchRequest body (useful when a filter is too long for a URL).',
  )
  @ScimSearchRoute(ScimUserListSchema, 'A ListResponse', filterAndPage('userName sw "ada"'))
  search(@CurrentPrincipal() p: ScimPrincipal, @SearchParams() query: ListQuery) {
    return this.users.list(p.workspaceId, query);
  }

  @Doc('Get a user', "One user of the token's workspace; attributes / excludedAttributes shape the answer.")
  @ScimGetRoute(ScimUserSchema, 'user')
  get(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ProjectionParams() projection: Projection) {
    return this.users.get(p.workspaceId, id, projection);
  }

  @Doc('Replace a user', 'Sets the attributes sent; attributes not sent keep their value (decision 0102).')
  @ScimReplaceRoute(ScimUserSchema, 'user', ScimUserBody(), INVALID, TAKEN)
  replace(
    @CurrentPrincipal() p: ScimPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @ProjectionParams() projection: Projection,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.users.replace(p, id, body, meta, projection);
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
    return this.users.patch(p, id, body, meta, projection);
  }

  @Doc(
    'Delete a user',
    'Deactivates the user (active=false) and signs them out everywhere; the user stays readable, as Okta and Entra expect.',
  )
  @ScimDeleteRoute('user')
  deactivate(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.users.deactivate(p, id, meta);
  }
}
