import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { DomainError, notFound } from '../common/errors';
import { isUuid } from '../common/ids';
import type { RequestMeta } from '../common/request-context';
import { JobsService } from '../jobs/jobs.service';
import { DatabasesService } from './databases.service';
import type { CreateBackupDto } from './dto/database.dto';
import { QUEUES } from './managed-db.queues';
import { ManagedDatabasesRepository } from './managed-databases.repository';
import { backupView, restoreView } from './managed-databases.views';

const actorOf = (p: DeveloperPrincipal) => ({ type: 'developer' as const, id: p.developerId, email: p.email });

/** Backups and restores: requested here, carried out by jobs (managed-db.jobs.ts). */
@Injectable()
export class BackupsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: ManagedDatabasesRepository,
    private readonly databases: DatabasesService,
    private readonly audit: AuditService,
    private readonly jobs: JobsService,
  ) {}

  async create(p: DeveloperPrincipal, databaseId: string, dto: CreateBackupDto, request: RequestMeta) {
    const db = await this.databases.findAvailable(p.developerId, databaseId);
    const backup = await this.dataSource.transaction(async (manager) => {
      const row = await this.repo.insertBackup(manager, db, dto.name);
      await this.jobs.enqueue(
        manager,
        QUEUES.backup,
        { backupId: row.id, workspaceId: db.workspace_id },
        { maxAttempts: QUEUES.backupAttempts },
      );
      await this.audit.record(manager, {
        eventType: 'managed_database_backup_create',
        workspaceId: db.workspace_id,
        actor: actorOf(p),
        target: { type: 'ManagedDatabaseBackup', id: row.id },
        request,
        metadata: { database_id: db.id, name: dto.name },
      });
      return row;
    });
    this.jobs.kick();
    return backupView(backup);
  }

  async list(developerId: string, databaseId: string) {
    const db = await this.databases.find(developerId, databaseId);
    return { results: (await this.repo.listBackups(db.workspace_id, db.id)).map(backupView) };
  }

  async get(developerId: string, id: string) {
    if (!isUuid(id)) throw notFound('backup');
    const backup = await this.repo.findBackupForDeveloper(developerId, id);
    if (!backup) throw notFound('backup');
    return backupView(backup);
  }

  /** Puts the backup back into the database it came from. */
  async restore(p: DeveloperPrincipal, backupId: string, request: RequestMeta) {
    if (!isUuid(backupId)) throw notFound('backup');
    const backup = await this.repo.findBackupForDeveloper(p.developerId, backupId);
    if (!backup) throw notFound('backup');
    if (backup.status !== 'completed') {
      throw new DomainError('not_ready', `The backup is ${backup.status}; only a completed backup can be restored`, {
        details: { status: backup.status },
      });
    }
    const db = await this.databases.findAvailable(p.developerId, backup.database_id);
    const restore = await this.dataSource.transaction(async (manager) => {
      const row = await this.repo.insertRestore(manager, backup);
      await this.jobs.enqueue(
        manager,
        QUEUES.restore,
        { restoreId: row.id, workspaceId: db.workspace_id },
        { maxAttempts: QUEUES.backupAttempts },
      );
      await this.audit.record(manager, {
        eventType: 'managed_database_restore',
        workspaceId: db.workspace_id,
        actor: actorOf(p),
        target: { type: 'ManagedDatabase', id: db.id },
        request,
        metadata: { backup_id: backup.id, restore_id: row.id },
      });
      return row;
    });
    this.jobs.kick();
    return restoreView(restore);
  }

  async getRestore(developerId: string, id: string) {
    if (!isUuid(id)) throw notFound('restore');
    const restore = await this.repo.findRestoreForDeveloper(developerId, id);
    if (!restore) throw notFound('restore');
    return restoreView(restore);
  }
}
