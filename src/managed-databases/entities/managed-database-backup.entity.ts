import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ManagedDatabase } from './managed-database.entity';
import { ForeignKey } from '../../database/foreign-key';

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

/** One backup of a managed database: requested by the API, written to a file by a job. */
@Entity('managed_database_backups')
@Index('managed_database_backups_db_idx', ['databaseId', 'createdAt', 'id'])
@Check('managed_database_backups_status_check', `status IN ('pending', 'running', 'completed', 'failed')`)
export class ManagedDatabaseBackup {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'managed_database_backups_pkey' }) id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @Column('uuid', { name: 'database_id' }) databaseId!: string;
  @ForeignKey(() => ManagedDatabase, 'managed_database_backups', 'database_id', { onDelete: 'CASCADE' }) database?: ManagedDatabase;
  @Column('text') name!: string;
  @Column('text', { default: 'pending' }) status!: JobStatus;
  @Column('text', { name: 'file_path', nullable: true }) filePath!: string | null;
  /** bigint: node-postgres reads it as text to keep its precision. */
  @Column('bigint', { name: 'size_bytes', nullable: true }) sizeBytes!: string | null;
  @Column('text', { name: 'checksum_sha256', nullable: true }) checksumSha256!: string | null;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt!: Date | null;
}
