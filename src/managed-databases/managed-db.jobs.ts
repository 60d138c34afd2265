import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { type JobContext, JobsService } from '../jobs/jobs.service';
import { EngineRegistry } from './engine-registry';
import type { EngineName } from './engines/database-engine';
import { type BackupJob, type DatabaseJob, QUEUES, type RestoreJob } from './managed-db.queues';
import { ManagedDatabasesRepository } from './managed-databases.repository';
import { TenantSecrets } from './tenant-secrets';

const EXTENSION: Record<EngineName, string> = { postgres: 'pgdump', redis: 'ndjson', mongodb: 'ndjson' };

/**
 * The work behind provisioning, deletion, backups and restores.
 *
 * Never done twice: each handler runs inside a transaction that locks the row it
 * works for and first checks that the work is still to be done. A second worker
 * that takes the same job (lease expired, retry) waits on the lock, then sees the
 * work finished and returns. A worker killed mid-way leaves the row as it was and
 * the engine steps are idempotent, so the next attempt converges (decision 0501).
 */
@Injectable()
export class ManagedDbJobs implements OnModuleInit {
  private readonly logger = new Logger('ManagedDbJobs');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: ManagedDatabasesRepository,
    private readonly engines: EngineRegistry,
    private readonly secrets: TenantSecrets,
    private readonly audit: AuditService,
    private readonly jobs: JobsService,
  ) {}

  onModuleInit(): void {
    this.jobs.registerHandler(QUEUES.provision, (p, ctx) => this.provision(p as unknown as DatabaseJob, ctx));
    this.jobs.registerHandler(QUEUES.deprovision, (p) => this.deprovision(p as unknown as DatabaseJob));
    this.jobs.registerHandler(QUEUES.backup, (p, ctx) => this.backup(p as unknown as BackupJob, ctx));
    this.jobs.registerHandler(QUEUES.restore, (p, ctx) => this.restore(p as unknown as RestoreJob, ctx));
  }

  async provision({ databaseId, workspaceId }: DatabaseJob, ctx: JobContext): Promise<void> {
    try {
      await this.dataSource.transaction(async (m) => {
        const db = await this.repo.lockDatabase(m, workspaceId, databaseId, 'UPDATE');
        if (!db || db.status !== 'creating') return; // done already, or deleted meanwhile
        await this.engines.get(db.engine).provision(this.secrets.tenant(db));
        await this.repo.setDatabaseStatus(m, workspaceId, databaseId, 'available');
      });
    } catch (err) {
      if (ctx.attempt < QUEUES.provisionAttempts) throw err;
      await this.failProvisioning({ databaseId, workspaceId }, err as Error);
    }
  }

  /** Last attempt failed: undo what may exist on the engine, then say why. */
  private async failProvisioning({ databaseId, workspaceId }: DatabaseJob, err: Error): Promise<void> {
    const message = err.message.slice(0, 500);
    await this.dataSource.transaction(async (m) => {
      const db = await this.repo.lockDatabase(m, workspaceId, databaseId, 'UPDATE');
      if (!db || db.status !== 'creating') return;
      await this.engines
        .get(db.engine)
        .deprovision({ dbName: db.db_name, username: db.username })
        .catch((cleanup: Error) => this.logger.warn(`cleanup after failed provisioning of ${db.db_name}: ${cleanup.message}`));
      await this.repo.setDatabaseStatus(m, workspaceId, databaseId, 'failed', message);
    });
    await this.audit.recordDetached({
      eventType: 'managed_database_provision_fail',
      workspaceId,
      actor: { type: 'system', id: null },
      target: { type: 'ManagedDatabase', id: databaseId },
      message,
    });
  }

  async deprovision({ databaseId, workspaceId }: DatabaseJob): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const db = await this.repo.lockDatabase(m, workspaceId, databaseId, 'UPDATE');
      if (!db || db.status !== 'deleting') return;
      await this.engines.get(db.engine).deprovision({ dbName: db.db_name, username: db.username });
      await rm(this.backupDir(workspaceId, databaseId), { recursive: true, force: true });
      await this.repo.deleteDatabase(m, workspaceId, databaseId);
    });
  }

  async backup({ backupId, workspaceId }: BackupJob, ctx: JobContext): Promise<void> {
    // Visible progress first (its own commit), then the work under the row locks.
    await this.dataSource.query(
      `UPDATE managed_database_backups SET status = 'running', started_at = COALESCE(started_at, now())
        WHERE workspace_id = $1 AND id = $2 AND status IN ('pending', 'running')`,
      [workspaceId, backupId],
    );
    try {
      await this.dataSource.transaction(async (m) => {
        const backup = await this.repo.lockBackup(m, workspaceId, backupId);
        if (!backup || backup.status !== 'running') return;
        const db = await this.repo.lockDatabase(m, workspaceId, backup.database_id, 'SHARE');
        if (!db || db.status !== 'available') throw new Error(`database is ${db?.status ?? 'gone'}`);
        const file = join(this.backupDir(workspaceId, db.id), `${backup.id}.${EXTENSION[db.engine]}`);
        const artifact = await this.engines.get(db.engine).backup({ dbName: db.db_name, username: db.username }, file);
        await this.repo.updateBackup(m, workspaceId, backupId, {
          status: 'completed',
          file_path: artifact.path,
          size_bytes: String(artifact.sizeBytes),
          checksum_sha256: artifact.sha256,
          completed_at: new Date(),
          error: null,
        });
      });
    } catch (err) {
      if (ctx.attempt < QUEUES.backupAttempts) throw err;
      await this.repo.updateBackup(this.dataSource.manager, workspaceId, backupId, {
        status: 'failed',
        error: (err as Error).message.slice(0, 500),
        completed_at: new Date(),
      });
    }
  }

  async restore({ restoreId, workspaceId }: RestoreJob, ctx: JobContext): Promise<void> {
    await this.dataSource.query(
      `UPDATE managed_database_restores SET status = 'running', started_at = COALESCE(started_at, now())
        WHERE workspace_id = $1 AND id = $2 AND status IN ('pending', 'running')`,
      [workspaceId, restoreId],
    );
    try {
      await this.dataSource.transaction(async (m) => {
        const restore = await this.repo.lockRestore(m, workspaceId, restoreId);
        if (!restore || restore.status !== 'running') return;
        // Exclusive: no backup, other restore or deletion of this database meanwhile.
        const db = await this.repo.lockDatabase(m, workspaceId, restore.database_id, 'UPDATE');
        if (!db || db.status !== 'available') throw new Error(`database is ${db?.status ?? 'gone'}`);
        const [backup] = (await m.query(`SELECT file_path FROM managed_database_backups WHERE workspace_id = $1 AND id = $2`, [
          workspaceId,
          restore.backup_id,
        ])) as { file_path: string | null }[];
        if (!backup?.file_path) throw new Error('the backup file is gone');
        await this.engines.get(db.engine).restore({ dbName: db.db_name, username: db.username }, backup.file_path);
        await this.repo.updateRestore(m, workspaceId, restoreId, { status: 'completed', completed_at: new Date(), error: null });
      });
    } catch (err) {
      if (ctx.attempt < QUEUES.backupAttempts) throw err;
      await this.repo.updateRestore(this.dataSource.manager, workspaceId, restoreId, {
        status: 'failed',
        error: (err as Error).message.slice(0, 500),
        completed_at: new Date(),
      });
    }
  }

  private backupDir(workspaceId: string, databaseId: string): string {
    return join(resolve(this.config.BACKUP_DIR), workspaceId, databaseId);
  }
}
