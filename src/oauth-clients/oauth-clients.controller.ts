import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { CreateOAuthClientDto, UpdateOAuthClientDto, WorkspaceQueryDto } from './dto/oauth-client.dto';
import { OAuthClientsService } from './oauth-clients.service';

@ApiTags('oauth clients')
@Controller('developer/oauth/clients')
@Auth('developer')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientsService) {}

  @Post()
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Body() dto: CreateOAuthClientDto, @ReqMeta() meta: RequestMeta) {
    return this.clients.create(p, dto, meta);
  }

  @Get()
  async list(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: WorkspaceQueryDto) {
    return { results: await this.clients.list(p, query.workspace_id) };
  }

  @Get(':id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.clients.get(p, id);
  }

  @Put(':id')
  update(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Body() dto: UpdateOAuthClientDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.clients.update(p, id, dto, meta);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.clients.remove(p, id, meta);
  }

  @Post(':id/secret')
  @HttpCode(200)
  rotate(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.clients.rotateSecret(p, id, meta);
  }
}
