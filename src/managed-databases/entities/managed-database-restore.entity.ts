import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { type JobStatus, ManagedDatabaseBackup } from './managed-database-backup.entity';
import { ManagedDatabase } from './managed-database.entity';
import { ForeignKey } from '../../database/foreign-key';

/** One restore of a backup into the database it came from, carried out by a job. */
@Entity('managed_database_restores')
@Index('managed_database_restores_backup_idx', ['backupId', 'createdAt'])
@Check('managed_database_restores_status_check', `status IN ('pending', 'running', 'completed', 'failed')`)
export class ManagedDatabaseRestore {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'managed_database_restores_pkey' }) id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @Column('uuid', { name: 'database_id' }) databaseId!: string;
  @ForeignKey(() => ManagedDatabase, 'managed_database_restores', 'database_id', { onDelete: 'CASCADE' }) database?: ManagedDatabase;
  @Column('uuid', { name: 'backup_id' }) backupId!: string;
  @ForeignKey(() => ManagedDatabaseBackup, 'managed_database_restores', 'backup_id', { onDelete: 'CASCADE' })
  backup?: ManagedDatabaseBackup;
  @Column('text', { default: 'pending' }) status!: JobStatus;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt!: Date | null;
}
