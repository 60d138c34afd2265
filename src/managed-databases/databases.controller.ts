import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { DatabasesService } from './databases.service';
import { CreateDatabaseDto, ListKeysQuery } from './dto/database.dto';
import {
  ConnectionDetailsResponse,
  DatabaseListResponse,
  DatabaseResponse,
  HealthResponse,
  KeysPageResponse,
  MetricsResponse,
} from './dto/responses.dto';

@ApiTags('managed databases')
@Controller('e/v1/developer')
@Auth('developer')
export class DatabasesController {
  constructor(private readonly databases: DatabasesService) {}

  @ApiOkResponse({ type: DatabaseListResponse })
  @Get('workspaces/:workspaceId/databases')
  async list(@CurrentPrincipal() p: DeveloperPrincipal, @Param('workspaceId') workspaceId: string) {
    return { results: await this.databases.list(p.developerId, workspaceId) };
  }

  @ApiCreatedResponse({ type: DatabaseResponse })
  @Post('workspaces/:workspaceId/databases')
  create(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('workspaceId') workspaceId: string,
    @Body() dto: CreateDatabaseDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.databases.create(p, workspaceId, dto, meta);
  }

  @ApiOkResponse({ type: DatabaseResponse })
  @Get('databases/:id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.get(p.developerId, id);
  }

  @ApiAcceptedResponse({ type: DatabaseResponse })
  @Delete('databases/:id')
  @HttpCode(202)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.databases.remove(p, id, meta);
  }

  @ApiOkResponse({ type: ConnectionDetailsResponse })
  @Get('databases/:id/connection')
  connection(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.databases.connection(p, id, meta);
  }

  @ApiOkResponse({ type: MetricsResponse })
  @Get('databases/:id/metrics')
  metrics(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.metrics(p.developerId, id);
  }

  @ApiOkResponse({ type: HealthResponse })
  @Get('databases/:id/health')
  health(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.health(p.developerId, id);
  }

  @ApiOkResponse({ type: KeysPageResponse })
  @Get('databases/:id/keys')
  keys(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Query() q: ListKeysQuery) {
    return this.databases.keys(p.developerId, id, q.cursor, q.count);
  }
}
