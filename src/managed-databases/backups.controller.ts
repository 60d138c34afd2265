import { Doc, type ErrorSpec } from '../api-docs/decorators';
import { ActionRoute, noSuch, ReadRoute } from '../api-docs/routes';
import { Body, Param } from '@nestjs/common';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { BackupsService } from './backups.service';
import { CreateBackupDto } from './dto/database.dto';
import { BackupListResponse, BackupResponse, RestoreResponse } from './dto/responses.dto';

const NO_BACKUP = noSuch('backup');
const BUSY: ErrorSpec = [409, 'conflict', 'A backup or restore of this database is already running'];

@DeveloperApi('e/v1/developer', 'managed databases')
export class BackupsController {
  constructor(private readonly backups: BackupsService) {}

  @Doc(
    'Back up a database',
    'Queues a backup (status pending → running → completed or failed) and answers at once; poll GET /e/v1/developer/backups/{id}/.',
  )
  @ActionRoute(
    'databases/:id/backups',
    202,
    BackupResponse,
    'The backup, status pending',
    noSuch('database'),
    [409, 'not_ready', 'The database is not available yet (still provisioning, or deleting)'],
    BUSY,
  )
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: CreateBackupDto, @ReqMeta() meta: RequestMeta) {
    return this.backups.create(p, id, dto, meta);
  }

  @Doc('List backups of a database', 'Newest first.')
  @ReadRoute('databases/:id/backups', BackupListResponse, 'The backups', noSuch('database'))
  list(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.list(p.developerId, id);
  }

  @Doc('Show a backup', 'Status, size and timestamps.')
  @ReadRoute('backups/:id', BackupResponse, 'The backup', NO_BACKUP)
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.get(p.developerId, id);
  }

  @Doc('Restore a backup', 'Queues a restore of a completed backup into its database; poll GET /e/v1/developer/restores/{id}/.')
  @ActionRoute(
    'backups/:id/restore',
    202,
    RestoreResponse,
    'The restore, status pending',
    NO_BACKUP,
    [409, 'not_ready', 'Only a completed backup can be restored'],
    BUSY,
  )
  restore(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.backups.restore(p, id, meta);
  }

  @Doc('Show a restore', 'Status and timestamps of a restore.')
  @ReadRoute('restores/:id', RestoreResponse, 'The restore', noSuch('restore'))
  getRestore(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.getRestore(p.developerId, id);
  }
}
