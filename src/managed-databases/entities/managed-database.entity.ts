import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { EngineName } from '../engines/database-engine';

export type DatabaseStatus = 'creating' | 'available' | 'failed' | 'deleting';

/**
 * One tenant database on an engine (spec F). workspace_id has no foreign key on purpose: the row
 * stands for real objects on the engine, so deleting a workspace must not erase what says what to
 * drop; a trigger on workspaces (the migration's) marks its databases `deleting` instead.
 */
@Entity('managed_databases')
@Unique('managed_databases_db_name_key', ['dbName'])
@Index('managed_databases_workspace_idx', ['workspaceId', 'createdAt', 'id'])
@Check('managed_databases_engine_check', `engine IN ('postgres', 'redis', 'mongodb')`)
@Check('managed_databases_status_check', `status IN ('creating', 'available', 'failed', 'deleting')`)
export class ManagedDatabase {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'managed_databases_pkey' }) id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @Column('text', { name: 'display_name' }) displayName!: string;
  @Column('text', { name: 'db_name' }) dbName!: string;
  @Column('text') engine!: EngineName;
  @Column('text') username!: string;
  @Column('text', { name: 'password_encrypted' }) passwordEncrypted!: string;
  @Column('text') host!: string;
  @Column('int') port!: number;
  @Column('text', { default: 'creating' }) status!: DatabaseStatus;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('int', { name: 'max_storage_mb' }) maxStorageMb!: number;
  @Column('int', { name: 'max_connections' }) maxConnections!: number;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}
