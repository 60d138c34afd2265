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

type QueryParams = Record<string, unknown>;

@ApiTags('scim')
@Controller('scim/v2/Groups')
@Auth('scim')
export class ScimGroupsController {
  constructor(private readonly groups: ScimGroupsService) {}

  @ScimJson()
  @Get()
  list(@CurrentPrincipal() p: ScimPrincipal, @Query() query: QueryParams) {
    return this.groups.list(p.workspaceId, readListQuery(query));
  }

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
  @ScimJson()
  @Post('.search')
  @HttpCode(200)
  search(@CurrentPrincipal() p: ScimPrincipal, @Body() body: unknown) {
    return this.groups.list(p.workspaceId, readSearchRequest(body));
  }

  @ScimJson()
  @Get(':id')
  get(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @Query() query: QueryParams) {
    return this.groups.get(p.workspaceId, id, readProjectionQuery(query));
  }

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

  @ScimJson()
  @Patch(':id')
  patch(
    @CurrentPrincipal() p: ScimPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query() query: QueryParams,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.groups.patch(p, id, body, meta, readProjectionQuery(query));
  }

  @ScimJson()
  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentPrincipal() p: ScimPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.groups.delete(p, id, meta);
  }
}
