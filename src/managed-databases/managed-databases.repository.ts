import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { EngineName } from './engines/database-engine';

export type DatabaseStatus = 'creating' | 'available' | 'failed' | 'deleting';
export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface DatabaseRow {
  id: string;
  workspace_id: string;
  display_name: string;
  db_name: string;
  engine: EngineName;
  username: string;
  password_encrypted: string;
  host: string;
  port: number;
  status: DatabaseStatus;
  error: string | null;
  max_storage_mb: number;
  max_connections: number;
  created_at: Date;
}

export interface BackupRow {
  id: string;
  workspace_id: string;
  database_id: string;
  name: string;
  status: JobStatus;
  file_path: string | null;
  size_bytes: string | null;
  checksum_sha256: string | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export interface RestoreRow {
  id: string;
  workspace_id: string;
  database_id: string;
  backup_id: string;
  status: JobStatus;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export type NewDatabase = Omit<DatabaseRow, 'id' | 'status' | 'error' | 'created_at'>;

/**
 * SQL for databases, backups and restores. Reads by id take the workspace ids
 * the caller may see, so a row of another tenant is simply not found.
 */
@Injectable()
export class ManagedDatabasesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async insertDatabase(manager: EntityManager, db: NewDatabase): Promise<DatabaseRow> {
    const rows = (await manager.query(
      `INSERT INTO managed_databases
         (workspace_id, display_name, db_name, engine, username, password_encrypted, host, port, max_storage_mb, max_connections)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [
        db.workspace_id,
        db.display_name,
        db.db_name,
        db.engine,
        db.username,
        db.password_encrypted,
        db.host,
        db.port,
        db.max_storage_mb,
        db.max_connections,
      ],
    )) as DatabaseRow[];
    return rows[0];
  }

  listDatabases(workspaceId: string): Promise<DatabaseRow[]> {
    return this.dataSource.query(`SELECT * FROM managed_databases WHERE workspace_id = $1 ORDER BY created_at, id`, [
      workspaceId,
    ]) as Promise<DatabaseRow[]>;
  }

  /** A database visible to the developer: they are a member of its workspace. */
  async findDatabaseForDeveloper(developerId: string, id: string, manager?: EntityManager, lock = ''): Promise<DatabaseRow | undefined> {
    const rows = (await this.m(manager).query(
      `SELECT d.* FROM managed_databases d
         JOIN workspace_members m ON m.workspace_id = d.workspace_id AND m.developer_id = $1
        WHERE d.id = $2 ${lock}`,
      [developerId, id],
    )) as DatabaseRow[];
    return rows[0];
  }

  async lockDatabase(manager: EntityManager, workspaceId: string, id: string, mode: 'UPDATE' | 'SHARE'): Promise<DatabaseRow | undefined> {
    const rows = (await manager.query(`SELECT * FROM managed_databases WHERE workspace_id = $1 AND id = $2 FOR ${mode}`, [
      workspaceId,
      id,
    ])) as DatabaseRow[];
    return rows[0];
  }

  async setDatabaseStatus(
    manager: EntityManager,
    workspaceId: string,
    id: string,
    status: DatabaseStatus,
    error: string | null = null,
  ): Promise<void> {
    await manager.query(`UPDATE managed_databases SET status = $3, error = $4, updated_at = now() WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
      status,
      error,
    ]);
  }

  async deleteDatabase(manager: EntityManager, workspaceId: string, id: string): Promise<void> {
    await manager.query(`DELETE FROM managed_databases WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
  }

  async insertBackup(manager: EntityManager, db: DatabaseRow, name: string): Promise<BackupRow> {
    const rows = (await manager.query(
      `INSERT INTO managed_database_backups (workspace_id, database_id, name) VALUES ($1, $2, $3) RETURNING *`,
      [db.workspace_id, db.id, name],
    )) as BackupRow[];
    return rows[0];
  }

  listBackups(workspaceId: string, databaseId: string): Promise<BackupRow[]> {
    return this.dataSource.query(
      `SELECT * FROM managed_database_backups WHERE workspace_id = $1 AND database_id = $2 ORDER BY created_at DESC, id`,
      [workspaceId, databaseId],
    ) as Promise<BackupRow[]>;
  }

  async findBackupForDeveloper(developerId: string, id: string): Promise<BackupRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT b.* FROM managed_database_backups b
         JOIN workspace_members m ON m.workspace_id = b.workspace_id AND m.developer_id = $1
        WHERE b.id = $2`,
      [developerId, id],
    )) as BackupRow[];
    return rows[0];
  }

  async lockBackup(manager: EntityManager, workspaceId: string, id: string): Promise<BackupRow | undefined> {
    const rows = (await manager.query(`SELECT * FROM managed_database_backups WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [
      workspaceId,
      id,
    ])) as BackupRow[];
    return rows[0];
  }

  async updateBackup(
    manager: EntityManager,
    workspaceId: string,
    id: string,
    fields: Partial<Omit<BackupRow, 'id' | 'workspace_id'>>,
  ): Promise<void> {
    await this.update(manager, 'managed_database_backups', workspaceId, id, fields);
  }

  async insertRestore(manager: EntityManager, backup: BackupRow): Promise<RestoreRow> {
    const rows = (await manager.query(
      `INSERT INTO managed_database_restores (workspace_id, database_id, backup_id) VALUES ($1, $2, $3) RETURNING *`,
      [backup.workspace_id, backup.database_id, backup.id],
    )) as RestoreRow[];
    return rows[0];
  }

  async findRestoreForDeveloper(developerId: string, id: string): Promise<RestoreRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT r.* FROM managed_database_restores r
         JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.developer_id = $1
        WHERE r.id = $2`,
      [developerId, id],
    )) as RestoreRow[];
    return rows[0];
  }

  async lockRestore(manager: EntityManager, workspaceId: string, id: string): Promise<RestoreRow | undefined> {
    const rows = (await manager.query(`SELECT * FROM managed_database_restores WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [
      workspaceId,
      id,
    ])) as RestoreRow[];
    return rows[0];
  }

  async updateRestore(
    manager: EntityManager,
    workspaceId: string,
    id: string,
    fields: Partial<Omit<RestoreRow, 'id' | 'workspace_id'>>,
  ): Promise<void> {
    await this.update(manager, 'managed_database_restores', workspaceId, id, fields);
  }

  private async update(
    manager: EntityManager,
    table: string,
    workspaceId: string,
    id: string,
    fields: Record<string, unknown>,
  ): Promise<void> {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    // Column names come from our own code (typed keys), never from input.
    const sets = keys.map((k, i) => `${k} = $${i + 3}`).join(', ');
    await manager.query(`UPDATE ${table} SET ${sets} WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
      ...keys.map((k) => fields[k]),
    ]);
  }
}
