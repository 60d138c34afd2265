import { Doc, Errors } from '../api-docs/decorators';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { type WorkspaceScope, WorkspaceScoped } from '../workspaces/workspace-scoped';
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
  @Doc('List databases of a workspace', 'Managed databases (postgres, redis, mongodb) with their status.')
  @Errors([404, 'not_found', 'No such workspace, or the caller is not a member of it'])
  @Get('workspaces/:workspaceId/databases')
  async list(@WorkspaceScoped('param', 'workspaceId') scope: WorkspaceScope) {
    return { results: await this.databases.list(scope) };
  }

  @ApiCreatedResponse({ type: DatabaseResponse })
  @Doc(
    'Create a managed database',
    'Starts provisioning on the chosen engine and answers at once with status creating; poll GET /e/v1/developer/databases/{id}/ until available. 422 when the engine is not offered by this instance.',
  )
  @Errors(
    [404, 'not_found', 'No such workspace, or the caller is not a member of it'],
    [422, 'engine_unavailable', 'The engine is not available on this service'],
  )
  @Post('workspaces/:workspaceId/databases')
  create(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @WorkspaceScoped('param', 'workspaceId') scope: WorkspaceScope,
    @Body() dto: CreateDatabaseDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.databases.create(p, scope, dto, meta);
  }

  @ApiOkResponse({ type: DatabaseResponse })
  @Doc('Show a database', 'Status, engine, plan and timestamps.')
  @Errors([404, 'not_found', 'No such database in a workspace of the caller'])
  @Get('databases/:id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.get(p.developerId, id);
  }

  @ApiAcceptedResponse({ type: DatabaseResponse })
  @Doc(
    'Delete a database',
    'Starts deprovisioning (status deleting) and answers at once; the engine-side database and its user are dropped by a job.',
  )
  @Errors(
    [404, 'not_found', 'No such database in a workspace of the caller'],
    [409, 'conflict', 'A backup or restore of this database is running'],
  )
  @Delete('databases/:id')
  @HttpCode(202)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.databases.remove(p, id, meta);
  }

  @ApiOkResponse({ type: ConnectionDetailsResponse })
  @Doc('Get connection details', 'Host, port, user, password and a connection URL for the database. Reading them is audited.')
  @Errors(
    [404, 'not_found', 'No such database in a workspace of the caller'],
    [409, 'not_ready', 'The database is not available yet (still provisioning, or deleting)'],
  )
  @Get('databases/:id/connection')
  connection(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.databases.connection(p, id, meta);
  }

  @ApiOkResponse({ type: MetricsResponse })
  @Doc('Read database metrics', 'Size and usage figures read from the engine now.')
  @Errors(
    [404, 'not_found', 'No such database in a workspace of the caller'],
    [409, 'not_ready', 'The database is not available yet (still provisioning, or deleting)'],
    [503, 'service_unavailable', 'The database engine did not answer'],
  )
  @Get('databases/:id/metrics')
  metrics(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.metrics(p.developerId, id);
  }

  @ApiOkResponse({ type: HealthResponse })
  @Doc('Check database health', 'Connects to the engine as the tenant and reports healthy, unhealthy or unknown with the latency.')
  @Errors([404, 'not_found', 'No such database in a workspace of the caller'])
  @Get('databases/:id/health')
  health(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.health(p.developerId, id);
  }

  @ApiOkResponse({ type: KeysPageResponse })
  @Doc('List keys of a redis database', 'SCAN-style paging: pass next_cursor as cursor. Redis databases only.')
  @Errors(
    [400, 'validation_failed', 'cursor or count breaks its rule'],
    [400, 'not_supported', 'Key listing exists only for redis databases'],
    [404, 'not_found', 'No such database in a workspace of the caller'],
    [409, 'not_ready', 'The database is not available yet (still provisioning, or deleting)'],
    [503, 'service_unavailable', 'The database engine did not answer'],
  )
  @Get('databases/:id/keys')
  keys(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Query() q: ListKeysQuery) {
    return this.databases.keys(p.developerId, id, q.cursor, q.count);
  }
}
