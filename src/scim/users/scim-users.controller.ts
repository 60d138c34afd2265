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
import { ScimUsersService } from './scim-users.service';
import { ScimSurface } from '../../common/surface.decorators';
import { ScimPatchRequestSchema } from '../protocol/protocol.schemas';
import { ScimCreated, ScimSearchRoute } from '../protocol/scim-routes';
import { ScimUserBody, ScimUserListSchema, ScimUserSchema } from './user.schemas';

type QueryParams = Record<string, unknown>;

@ApiTags('scim')
@ScimSurface()
@Controller('scim/v2/Users')
@Auth('scim')
export class ScimUsersController {
  constructor(private readonly users: ScimUsersService) {}

  @Doc('List users', "Pages through the users of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).")
  @ScimListQuery()
  @ScimReturns(200, ScimUserListSchema, 'A ListResponse')
  @ScimErrors([400, 'invalidFilter', 'The filter cannot be parsed or names an unsupported attribute'])
  @ScimJson()
  @Get()
  list(@CurrentPrincipal() p: ScimPrincipal, @Query() query: QueryParams) {
    return this.users.list(p.workspaceId, readListQuery(query));
  }

  @Doc(
    'Create a user',
    "Creates a user in the token's workspace; Location names it. Unknown attributes are ignored. When the userName (or primary email) belongs to a deactivated user of the workspace, that user is reactivated instead: the same id, 201, its attributes replaced as by PUT (how Okta and Entra re-provision a person they removed).",
  )
  @ScimUserBody()
  @ScimCreated(ScimUserSchema, 'user')
  @ScimErrors(
    [400, 'invalidValue', 'userName missing, an email not valid, or a value of the wrong type'],
    [409, 'uniqueness', 'userName (email) is already taken by an active user of the workspace'],
  )
  @ScimJson()
  @Post()
  async create(
    @CurrentPrincipal() p: ScimPrincipal,
    @Body() body: unknown,
    @ReqMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ) {
    const user = await this.users.create(p, body, meta);
    res.location((user.meta as { location: string }).location);
    return user;
  }

  /** POST /Users/.search (RFC 7644 §3.4.3): the list, with its parameters in the body. Before ':id' routes. */
  @Doc(
    'Search users (POST)',
    'RFC 7644 §3.4.3: the same as GET /scim/v2/Users with the parameters in a SearchRequest body (useful when a filter is too long for a URL).',
  )
  @ScimSearchRoute(ScimUserListSchema, 'A ListResponse', {
    page: {
      summary: 'Filter and page',
      value: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: 'userName sw "ada"',
        startIndex: 1,
        count: 10,
      },
    },
  })
  search(@CurrentPrincipal() p: ScimPrincipal, @Body() body: unknown) {
    return this.users.list(p.workspaceId, readSearchRequest(body));
  }

  @Doc('Get a user', "One user of the token's workspace; attributes / excludedAttributes shape the answer.")
  @ScimProjectionQuery()
  @ScimReturns(200, ScimUserSchema, 'The user')
  @ScimErrors([404, '', "No user with this id in the token's workspace"])
  @ScimJson()
  @Get(':id')
  get(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @Query() query: QueryParams) {
    return this.users.get(p.workspaceId, id, readProjectionQuery(query));
  }

  @Doc('Replace a user', 'Sets the attributes sent; attributes not sent keep their value (decision 0102).')
  @ScimProjectionQuery()
  @ScimUserBody()
  @ScimReturns(200, ScimUserSchema, 'The replaced user')
  @ScimErrors(
    [400, 'invalidValue', 'userName missing, an email not valid, or a value of the wrong type'],
    [404, '', "No user with this id in the token's workspace"],
    [409, 'uniqueness', 'userName (email) is already taken in the workspace'],
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
    return this.users.replace(p, id, body, meta, readProjectionQuery(query));
  }

  @Doc('Patch a user', 'Applies RFC 7644 §3.5.2 operations in order, all or nothing.')
  @ScimProjectionQuery()
  @ScimBody(ScimPatchRequestSchema, 'PatchOp', {
    deactivate: {
      summary: 'Deactivate (Okta, Entra)',
      value: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] },
    },
    rename: {
      summary: 'Change the name',
      value: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', value: { 'name.givenName': 'Augusta', 'name.familyName': 'King' } }],
      },
    },
  })
  @ScimReturns(200, ScimUserSchema, 'The patched user')
  @ScimErrors(
    [400, 'invalidValue', 'userName missing, an email not valid, or a value of the wrong type'],
    [400, 'invalidPath', 'The path cannot be read or names an unknown attribute'],
    [400, 'invalidSyntax', 'No Operations array, or an op other than add, replace or remove'],
    [400, 'noTarget', 'A remove without a path'],
    [400, 'mutability', 'The operation removes a required attribute (userName, displayName)'],
    [404, '', "No user with this id in the token's workspace"],
    [409, 'uniqueness', 'userName (email) is already taken in the workspace'],
  )
  @ScimJson()
  @Patch(':id')
  patch(
    @CurrentPrincipal() p: ScimPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query() query: QueryParams,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.users.patch(p, id, body, meta, readProjectionQuery(query));
  }

  @Doc(
    'Delete a user',
    'Deactivates the user (active=false) and signs them out everywhere; the user stays readable, as Okta and Entra expect.',
  )
  @NoBody(204, 'Done')
  @ScimErrors([404, '', "No user with this id in the token's workspace"])
  @ScimJson()
  @Delete(':id')
  @HttpCode(204)
  deactivate(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.users.deactivate(p, id, meta);
  }
}
