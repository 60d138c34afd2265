import { Doc, Errors, type ErrorSpec } from '../api-docs/decorators';
import { CreateRoute, noSuch, NOT_A_MEMBER, ReadRoute } from '../api-docs/routes';
import { Body, Delete, HttpCode, Param, Query } from '@nestjs/common';
import { ApiAcceptedResponse } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
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

const NO_DATABASE = noSuch('database');
const NOT_READY: ErrorSpec = [409, 'not_ready', 'The database is not available yet (still provisioning, or deleting)'];
const NO_ANSWER: ErrorSpec = [503, 'service_unavailable', 'The database engine did not answer'];

@DeveloperApi('e/v1/developer', 'managed databases')
export class DatabasesController {
  constructor(private readonly databases: DatabasesService) {}

  @Doc('List databases of a workspace', 'Managed databases (postgres, redis, mongodb) with their status.')
  @ReadRoute('workspaces/:workspaceId/databases', DatabaseListResponse, 'The databases of the workspace', NOT_A_MEMBER)
  async list(@WorkspaceScoped('param', 'workspaceId') scope: WorkspaceScope) {
    return { results: await this.databases.list(scope) };
  }

  @Doc(
    'Create a managed database',
    'Starts provisioning on the chosen engine and answers at once with status creating; poll GET /e/v1/developer/databases/{id}/ until available. 422 when the engine is not offered by this instance.',
  )
  @CreateRoute('workspaces/:workspaceId/databases', DatabaseResponse, 'The database, status creating', NOT_A_MEMBER, [
    422,
    'engine_unavailable',
    'The engine is not available on this service',
  ])
  create(@WorkspaceScoped('param', 'workspaceId') scope: WorkspaceScope, @Body() dto: CreateDatabaseDto, @ReqMeta() meta: RequestMeta) {
    return this.databases.create(scope, dto, meta);
  }

  @Doc('Show a database', 'Status, engine, plan and timestamps.')
  @ReadRoute('databases/:id', DatabaseResponse, 'The database', NO_DATABASE)
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.get(p.developerId, id);
  }

  @ApiAcceptedResponse({ type: DatabaseResponse })
  @Doc(
    'Delete a database',
    'Starts deprovisioning (status deleting) and answers at once; the engine-side database and its user are dropped by a job.',
  )
  @Errors(NO_DATABASE, [409, 'conflict', 'A backup or restore of this database is running'])
  @Delete('databases/:id')
  @HttpCode(202)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.databases.remove(p, id, meta);
  }

  @Doc('Get connection details', 'Host, port, user, password and a connection URL for the database. Reading them is audited.')
  @ReadRoute('databases/:id/connection', ConnectionDetailsResponse, 'The connection details', NO_DATABASE, NOT_READY)
  connection(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.databases.connection(p, id, meta);
  }

  @Doc('Read database metrics', 'Size and usage figures read from the engine now.')
  @ReadRoute('databases/:id/metrics', MetricsResponse, 'The figures', NO_DATABASE, NOT_READY, NO_ANSWER)
  metrics(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.metrics(p.developerId, id);
  }

  @Doc('Check database health', 'Connects to the engine as the tenant and reports healthy, unhealthy or unknown with the latency.')
  @ReadRoute('databases/:id/health', HealthResponse, 'The health and latency', NO_DATABASE)
  health(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.databases.health(p.developerId, id);
  }

  @Doc('List keys of a redis database', 'SCAN-style paging: pass next_cursor as cursor. Redis databases only.')
  @ReadRoute(
    'databases/:id/keys',
    KeysPageResponse,
    'One page of keys',
    [400, 'validation_failed', 'cursor or count breaks its rule'],
    [400, 'not_supported', 'Key listing exists only for redis databases'],
    NO_DATABASE,
    NOT_READY,
    NO_ANSWER,
  )
  keys(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Query() q: ListKeysQuery) {
    return this.databases.keys(p.developerId, id, q.cursor, q.count);
  }
}
