import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { type Tx, UnitOfWork } from '../database/unit-of-work';
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
 * Never done twice: each handler runs inside a unit of work that locks the row it
 * works for and first checks that the work is still to be done. A second worker
 * that takes the same job (lease expired, retry) waits on the lock, then sees the
 * work finished and returns. A worker killed mid-way leaves the row as it was and
 * the engine steps are idempotent, so the next attempt converges (decision 0511).
 */
@Injectable()
export class ManagedDbJobs implements OnModuleInit {
  private readonly logger = new Logger('ManagedDbJobs');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly repo: ManagedDatabasesRepository,
    private readonly engines: EngineRegistry,
    private readonly secrets: TenantSecrets,
    private readonly jobs: JobsService,
  ) {}

  onModuleInit(): void {
    this.jobs.registerHandler(QUEUES.provision, (p, ctx) => this.provision(p as unknown as DatabaseJob, ctx));
    this.jobs.registerHandler(QUEUES.deprovision, (p) => this.deprovision(p as unknown as DatabaseJob));
    this.jobs.registerHandler(QUEUES.backup, (p, ctx) => this.backup(p as unknown as BackupJob, ctx));
    this.jobs.registerHandler(QUEUES.restore, (p, ctx) => this.restore(p as unknown as RestoreJob, ctx));
  }

  async provision({ databaseId, workspaceId }: DatabaseJob, ctx: JobContext): Promise<void> {
    await untilLastAttempt(
      ctx,
      QUEUES.provisionAttempts,
      () =>
        this.uow.run(async (tx) => {
          const db = await this.repo.lockDatabase(tx, workspaceId, databaseId, 'UPDATE');
          if (!db || db.status !== 'creating') return; // done already, or deleted meanwhile
          await this.engines.get(db.engine).provision(this.secrets.tenant(db));
          await this.repo.setDatabaseStatus(tx, workspaceId, databaseId, 'available');
        }),
      (message) => this.failProvisioning({ databaseId, workspaceId }, message),
    );
  }

  /** Last attempt failed: undo what may exist on the engine, then say why (the status and its audit row commit together). */
  private async failProvisioning({ databaseId, workspaceId }: DatabaseJob, message: string): Promise<void> {
    await this.uow.run(async (tx, events) => {
      const db = await this.repo.lockDatabase(tx, workspaceId, databaseId, 'UPDATE');
      if (!db || db.status !== 'creating') return;
      await this.engines
        .get(db.engine)
        .deprovision({ dbName: db.dbName, username: db.username })
        .catch((cleanup: Error) => this.logger.warn(`cleanup after failed provisioning of ${db.dbName}: ${cleanup.message}`));
      await this.repo.setDatabaseStatus(tx, workspaceId, databaseId, 'failed', message);
      events.emit('managed_database_provision_fail', {
        workspaceId,
        actor: { type: 'system', id: null },
        target: { type: 'ManagedDatabase', id: databaseId },
        message,
      });
    });
  }

  async deprovision({ databaseId, workspaceId }: DatabaseJob): Promise<void> {
    await this.uow.run(async (tx) => {
      const db = await this.repo.lockDatabase(tx, workspaceId, databaseId, 'UPDATE');
      if (!db || db.status !== 'deleting') return;
      await this.engines.get(db.engine).deprovision({ dbName: db.dbName, username: db.username });
      await rm(this.backupDir(workspaceId, databaseId), { recursive: true, force: true });
      await this.repo.deleteDatabase(tx, workspaceId, databaseId);
    });
  }

  async backup({ backupId, workspaceId }: BackupJob, ctx: JobContext): Promise<void> {
    // Visible progress first (its own commit), then the work under the row locks.
    await this.repo.markBackupRunning(workspaceId, backupId);
    await untilLastAttempt(
      ctx,
      QUEUES.backupAttempts,
      () =>
        this.uow.run(async (tx) => {
          const backup = await this.repo.lockBackup(tx, workspaceId, backupId);
          if (!backup || backup.status !== 'running') return;
          const db = await this.lockAvailable(tx, workspaceId, backup.databaseId, 'SHARE');
          const file = join(this.backupDir(workspaceId, db.id), `${backup.id}.${EXTENSION[db.engine]}`);
          const artifact = await this.engines.get(db.engine).backup({ dbName: db.dbName, username: db.username }, file);
          await this.repo.completeBackup(tx, workspaceId, backupId, {
            filePath: artifact.path,
            sizeBytes: artifact.sizeBytes,
            checksumSha256: artifact.sha256,
          });
        }),
      (message) => this.repo.failBackup(workspaceId, backupId, message),
    );
  }

  async restore({ restoreId, workspaceId }: RestoreJob, ctx: JobContext): Promise<void> {
    await this.repo.markRestoreRunning(workspaceId, restoreId);
    await untilLastAttempt(
      ctx,
      QUEUES.backupAttempts,
      () =>
        this.uow.run(async (tx) => {
          const restore = await this.repo.lockRestore(tx, workspaceId, restoreId);
          if (!restore || restore.status !== 'running') return;
          // Exclusive: no backup, other restore or deletion of this database meanwhile.
          const db = await this.lockAvailable(tx, workspaceId, restore.databaseId, 'UPDATE');
          const filePath = await this.repo.backupFilePath(tx, workspaceId, restore.backupId);
          if (!filePath) throw new Error('the backup file is gone');
          await this.engines.get(db.engine).restore({ dbName: db.dbName, username: db.username }, filePath);
          await this.repo.completeRestore(tx, workspaceId, restoreId);
        }),
      (message) => this.repo.failRestore(workspaceId, restoreId, message),
    );
  }

  /** The database a backup or restore works on, locked in `mode`; anything but available fails the attempt. */
  private async lockAvailable(tx: Tx, workspaceId: string, databaseId: string, mode: 'SHARE' | 'UPDATE') {
    const db = await this.repo.lockDatabase(tx, workspaceId, databaseId, mode);
    if (!db || db.status !== 'available') throw new Error(`database is ${db?.status ?? 'gone'}`);
    return db;
  }

  private backupDir(workspaceId: string, databaseId: string): string {
    return join(resolve(this.config.BACKUP_DIR), workspaceId, databaseId);
  }
}

/** What a failed job's row keeps of its error message. */
const FAILURE_MESSAGE_CHARS = 500;

/**
 * A job's work, retried by the queue (the error thrown on) until its last attempt, whose failure is
 * recorded instead: the row says why, and nothing retries it again.
 */
async function untilLastAttempt(
  ctx: JobContext,
  attempts: number,
  work: () => Promise<void>,
  recordFailure: (message: string) => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (ctx.attempt < attempts) throw err;
    await recordFailure((err as Error).message.slice(0, FAILURE_MESSAGE_CHARS));
  }
}
