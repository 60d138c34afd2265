import { Doc, Errors } from '../api-docs/decorators';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { BackupsService } from './backups.service';
import { CreateBackupDto } from './dto/database.dto';
import { BackupListResponse, BackupResponse, RestoreResponse } from './dto/responses.dto';

@ApiTags('managed databases')
@Controller('e/v1/developer')
@Auth('developer')
export class BackupsController {
  constructor(private readonly backups: BackupsService) {}

  @ApiAcceptedResponse({ type: BackupResponse })
  @Doc(
    'Back up a database',
    'Queues a backup (status pending → running → completed or failed) and answers at once; poll GET /e/v1/developer/backups/{id}/.',
  )
  @Errors(
    [404, 'not_found', 'No such database in a workspace of the caller'],
    [409, 'not_ready', 'The database is not available yet (still provisioning, or deleting)'],
    [409, 'conflict', 'A backup or restore of this database is already running'],
  )
  @Post('databases/:id/backups')
  @HttpCode(202)
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: CreateBackupDto, @ReqMeta() meta: RequestMeta) {
    return this.backups.create(p, id, dto, meta);
  }

  @ApiOkResponse({ type: BackupListResponse })
  @Doc('List backups of a database', 'Newest first.')
  @Errors([404, 'not_found', 'No such database in a workspace of the caller'])
  @Get('databases/:id/backups')
  list(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.list(p.developerId, id);
  }

  @ApiOkResponse({ type: BackupResponse })
  @Doc('Show a backup', 'Status, size and timestamps.')
  @Errors([404, 'not_found', 'No such backup in a workspace of the caller'])
  @Get('backups/:id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.get(p.developerId, id);
  }

  @ApiAcceptedResponse({ type: RestoreResponse })
  @Doc('Restore a backup', 'Queues a restore of a completed backup into its database; poll GET /e/v1/developer/restores/{id}/.')
  @Errors(
    [404, 'not_found', 'No such backup in a workspace of the caller'],
    [409, 'not_ready', 'Only a completed backup can be restored'],
    [409, 'conflict', 'A backup or restore of this database is already running'],
  )
  @Post('backups/:id/restore')
  @HttpCode(202)
  restore(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.backups.restore(p, id, meta);
  }

  @ApiOkResponse({ type: RestoreResponse })
  @Doc('Show a restore', 'Status and timestamps of a restore.')
  @Errors([404, 'not_found', 'No such restore in a workspace of the caller'])
  @Get('restores/:id')
  getRestore(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.getRestore(p.developerId, id);
  }
}
