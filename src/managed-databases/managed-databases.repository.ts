import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, QueryFailedError, Repository, type SelectQueryBuilder } from 'typeorm';
import { NO_ROW } from '../database/row-shape';
import { run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { type JobStatus, ManagedDatabaseBackup } from './entities/managed-database-backup.entity';
import { ManagedDatabaseRestore } from './entities/managed-database-restore.entity';
import { type DatabaseStatus, ManagedDatabase } from './entities/managed-database.entity';
import { inCreationOrder } from '../database/workspace-row';

/** For the rest of the transaction, a lock wait gives up after 5 s (set_config: SET LOCAL cannot be prepared). */
const LOCK_TIMEOUT = statement('managed-databases.lock-timeout', `SELECT set_config('lock_timeout', '5s', true)`, NO_ROW);

export type { DatabaseStatus } from './entities/managed-database.entity';
export type { JobStatus } from './entities/managed-database-backup.entity';

/** What the API decides about a new database; the row's id, status and times come from the database. */
export type NewDatabase = Pick<
  ManagedDatabase,
  'displayName' | 'dbName' | 'engine' | 'username' | 'passwordEncrypted' | 'host' | 'port' | 'maxStorageMb' | 'maxConnections'
>;

/** What a backup job records when it has written the file. */
export interface BackupArtifact {
  filePath: string;
  sizeBytes: number;
  checksumSha256: string;
}

const LOCK_NOT_AVAILABLE = '55P03';
const UNFINISHED: JobStatus[] = ['pending', 'running'];

/** The statement waited longer than the transaction's lock_timeout for a row lock. */
export function isLockNotAvailable(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string }).code === LOCK_NOT_AVAILABLE;
}

/**
 * Databases, backups and restores. Reads by id from the developer API take the developer, so a
 * row of a workspace they are not a member of is simply not found; everything else takes the
 * workspace first. Writes of a unit of work take its transaction.
 */
@Injectable()
export class ManagedDatabasesRepository {
  constructor(
    @InjectRepository(ManagedDatabase) private readonly databases: Repository<ManagedDatabase>,
    @InjectRepository(ManagedDatabaseBackup) private readonly backups: Repository<ManagedDatabaseBackup>,
    @InjectRepository(ManagedDatabaseRestore) private readonly restores: Repository<ManagedDatabaseRestore>,
  ) {}

  // --- databases

  /** Inserts the row (status `creating`) and returns it as stored. */
  async insertDatabase(tx: Tx, workspaceId: string, values: NewDatabase): Promise<ManagedDatabase> {
    const repo = tx.getRepository(ManagedDatabase);
    const row = repo.create({ ...values, workspaceId, error: null });
    await repo.insert(row); // RETURNING fills id, status and the times in
    return row;
  }

  listDatabases(workspaceId: string): Promise<ManagedDatabase[]> {
    return inCreationOrder(this.databases, workspaceId);
  }

  /** A database visible to the developer: they are a member of its workspace. */
  async findDatabaseForDeveloper(developerId: string, id: string): Promise<ManagedDatabase | null> {
    return visibleTo(this.databases.createQueryBuilder('r'), developerId, id).getOne();
  }

  /**
   * The developer's database, locked for update. From here on the transaction waits at most 5 s
   * for a lock, then the statement fails with lock_not_available ({@link isLockNotAvailable}): a
   * running backup or restore holds the row for as long as it runs.
   */
  async lockDatabaseForDeveloper(tx: Tx, developerId: string, id: string): Promise<ManagedDatabase | null> {
    await run(tx, LOCK_TIMEOUT, []);
    return visibleTo(tx.getRepository(ManagedDatabase).createQueryBuilder('r'), developerId, id)
      .setLock('pessimistic_write', undefined, ['r'])
      .getOne();
  }

  lockDatabase(tx: Tx, workspaceId: string, id: string, mode: 'UPDATE' | 'SHARE'): Promise<ManagedDatabase | null> {
    return tx.getRepository(ManagedDatabase).findOne({
      where: { workspaceId, id },
      lock: { mode: mode === 'UPDATE' ? 'pessimistic_write' : 'pessimistic_read' },
    });
  }

  async setDatabaseStatus(tx: Tx, workspaceId: string, id: string, status: DatabaseStatus, error: string | null = null): Promise<void> {
    await tx.getRepository(ManagedDatabase).update({ workspaceId, id }, { status, error, updatedAt: () => 'now()' });
  }

  async deleteDatabase(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx.getRepository(ManagedDatabase).delete({ workspaceId, id });
  }

  // --- backups

  async insertBackup(tx: Tx, workspaceId: string, databaseId: string, name: string): Promise<ManagedDatabaseBackup> {
    const repo = tx.getRepository(ManagedDatabaseBackup);
    const row = repo.create({
      workspaceId,
      databaseId,
      name,
      filePath: null,
      sizeBytes: null,
      checksumSha256: null,
      error: null,
      startedAt: null,
      completedAt: null,
    });
    await repo.insert(row);
    return row;
  }

  listBackups(workspaceId: string, databaseId: string): Promise<ManagedDatabaseBackup[]> {
    return this.backups.find({ where: { workspaceId, databaseId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  findBackupForDeveloper(developerId: string, id: string): Promise<ManagedDatabaseBackup | null> {
    return visibleTo(this.backups.createQueryBuilder('r'), developerId, id).getOne();
  }

  lockBackup(tx: Tx, workspaceId: string, id: string): Promise<ManagedDatabaseBackup | null> {
    return tx.getRepository(ManagedDatabaseBackup).findOne({ where: { workspaceId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The file of a backup, or null when it has none (or is gone). */
  async backupFilePath(tx: Tx, workspaceId: string, id: string): Promise<string | null> {
    const backup = await tx
      .getRepository(ManagedDatabaseBackup)
      .findOne({ select: { id: true, filePath: true }, where: { workspaceId, id } });
    return backup?.filePath ?? null;
  }

  /** Visible progress, committed on its own: a pending (or interrupted) backup turns running. */
  async markBackupRunning(workspaceId: string, id: string): Promise<void> {
    await this.backups.update(
      { workspaceId, id, status: In(UNFINISHED) },
      { status: 'running', startedAt: () => 'COALESCE(started_at, now())' },
    );
  }

  async completeBackup(tx: Tx, workspaceId: string, id: string, artifact: BackupArtifact): Promise<void> {
    await tx.getRepository(ManagedDatabaseBackup).update(
      { workspaceId, id },
      {
        status: 'completed',
        filePath: artifact.filePath,
        sizeBytes: String(artifact.sizeBytes),
        checksumSha256: artifact.checksumSha256,
        completedAt: new Date(),
        error: null,
      },
    );
  }

  /** The last attempt failed: committed on its own, outside the work's rolled-back transaction. */
  async failBackup(workspaceId: string, id: string, error: string): Promise<void> {
    await this.backups.update({ workspaceId, id }, { status: 'failed', error, completedAt: new Date() });
  }

  // --- restores

  async insertRestore(tx: Tx, workspaceId: string, backup: ManagedDatabaseBackup): Promise<ManagedDatabaseRestore> {
    const repo = tx.getRepository(ManagedDatabaseRestore);
    const row = repo.create({
      workspaceId,
      databaseId: backup.databaseId,
      backupId: backup.id,
      error: null,
      startedAt: null,
      completedAt: null,
    });
    await repo.insert(row);
    return row;
  }

  findRestoreForDeveloper(developerId: string, id: string): Promise<ManagedDatabaseRestore | null> {
    return visibleTo(this.restores.createQueryBuilder('r'), developerId, id).getOne();
  }

  lockRestore(tx: Tx, workspaceId: string, id: string): Promise<ManagedDatabaseRestore | null> {
    return tx.getRepository(ManagedDatabaseRestore).findOne({ where: { workspaceId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Visible progress, committed on its own: a pending (or interrupted) restore turns running. */
  async markRestoreRunning(workspaceId: string, id: string): Promise<void> {
    await this.restores.update(
      { workspaceId, id, status: In(UNFINISHED) },
      { status: 'running', startedAt: () => 'COALESCE(started_at, now())' },
    );
  }

  async completeRestore(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx
      .getRepository(ManagedDatabaseRestore)
      .update({ workspaceId, id }, { status: 'completed', completedAt: new Date(), error: null });
  }

  /** The last attempt failed: committed on its own, outside the work's rolled-back transaction. */
  async failRestore(workspaceId: string, id: string, error: string): Promise<void> {
    await this.restores.update({ workspaceId, id }, { status: 'failed', error, completedAt: new Date() });
  }
}

/** Row `id` of alias `r`, only if the developer is a member of its workspace. */
function visibleTo<T extends { id: string; workspaceId: string }>(
  qb: SelectQueryBuilder<T>,
  developerId: string,
  id: string,
): SelectQueryBuilder<T> {
  return qb
    .innerJoin('workspace_members', 'm', 'm.workspace_id = r.workspace_id AND m.developer_id = :developerId', { developerId })
    .where('r.id = :id', { id });
}
