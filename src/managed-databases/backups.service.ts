import { Injectable } from '@nestjs/common';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { DomainError } from '../common/errors';
import { findOr404 } from '../common/common.errors';
import type { RequestMeta } from '../common/request-context';
import { UnitOfWork } from '../database/unit-of-work';
import { JobsService } from '../jobs/jobs.service';
import { DatabasesService } from './databases.service';
import type { CreateBackupDto } from './dto/database.dto';
import { QUEUES } from './managed-db.queues';
import { ManagedDatabasesRepository } from './managed-databases.repository';
import { backupView, restoreView } from './managed-databases.views';
import { MANAGED_DATABASE_ERRORS } from './managed-databases.errors';
import { byDeveloper } from '../events/domain-events';

/** Backups and restores: requested here, carried out by jobs (managed-db.jobs.ts). */
@Injectable()
export class BackupsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: ManagedDatabasesRepository,
    private readonly databases: DatabasesService,
    private readonly jobs: JobsService,
  ) {}

  async create(p: DeveloperPrincipal, databaseId: string, dto: CreateBackupDto, request: RequestMeta) {
    const db = await this.databases.findAvailable(p.developerId, databaseId);
    const backup = await this.uow.run(async (tx, events) => {
      const row = await this.repo.insertBackup(tx, db.workspaceId, db.id, dto.name);
      await this.jobs.enqueue(tx, QUEUES.backup, { backupId: row.id, workspaceId: db.workspaceId }, { maxAttempts: QUEUES.backupAttempts });
      events.emit('managed_database_backup_create', {
        ...byDeveloper(p, db.workspaceId, { type: 'ManagedDatabaseBackup', id: row.id }, request),
        metadata: { database_id: db.id, name: dto.name },
      });
      return row;
    });
    return backupView(backup);
  }

  async list(developerId: string, databaseId: string) {
    const db = await this.databases.find(developerId, databaseId);
    return { results: (await this.repo.listBackups(db.workspaceId, db.id)).map(backupView) };
  }

  async get(developerId: string, id: string) {
    return backupView(await findOr404('backup', id, (backupId) => this.repo.findBackupForDeveloper(developerId, backupId)));
  }

  /** Puts the backup back into the database it came from. */
  async restore(p: DeveloperPrincipal, backupId: string, request: RequestMeta) {
    const backup = await findOr404('backup', backupId, (id) => this.repo.findBackupForDeveloper(p.developerId, id));
    if (backup.status !== 'completed') {
      throw new DomainError(MANAGED_DATABASE_ERRORS.not_ready, `The backup is ${backup.status}; only a completed backup can be restored`, {
        details: { status: backup.status },
      });
    }
    const db = await this.databases.findAvailable(p.developerId, backup.databaseId);
    const restore = await this.uow.run(async (tx, events) => {
      const row = await this.repo.insertRestore(tx, backup.workspaceId, backup);
      await this.jobs.enqueue(
        tx,
        QUEUES.restore,
        { restoreId: row.id, workspaceId: db.workspaceId },
        { maxAttempts: QUEUES.backupAttempts },
      );
      events.emit('managed_database_restore', {
        ...byDeveloper(p, db.workspaceId, { type: 'ManagedDatabase', id: db.id }, request),
        metadata: { backup_id: backup.id, restore_id: row.id },
      });
      return row;
    });
    return restoreView(restore);
  }

  async getRestore(developerId: string, id: string) {
    return restoreView(await findOr404('restore', id, (restoreId) => this.repo.findRestoreForDeveloper(developerId, restoreId)));
  }
}
