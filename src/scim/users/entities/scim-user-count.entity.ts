import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../../database/foreign-key';

/**
 * Part of a workspace's number of SCIM users: the sum of its rows is exact (totalResults of an
 * unfiltered page). Statement triggers on end_users add each statement's difference to the row of
 * the database backend that ran it, which no other transaction in flight can hold (decision 0122).
 */
@Entity('scim_user_counts')
export class ScimUserCount {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ForeignKey(() => Workspace, 'scim_user_counts', 'workspace_id', { onDelete: 'CASCADE' }) workspace?: Workspace;
  @PrimaryColumn('integer', { name: 'backend_pid' }) backendPid!: number;
  /** bigint: text in JS. */
  @Column('bigint') users!: string;
}
