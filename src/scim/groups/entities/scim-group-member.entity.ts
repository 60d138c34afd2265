import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../../workspaces/entities/workspace.entity';
import { ScimGroup } from './scim-group.entity';
import { ForeignKey } from '../../../database/foreign-key';

/** One SCIM user (an end_users row without OAuth client) in one group of the same workspace. */
@Entity('scim_group_members')
// DELETE /Users/{id} removes every membership of the user.
@Index('scim_group_members_user_idx', ['userId'])
export class ScimGroupMember {
  @PrimaryColumn('uuid', { name: 'group_id' }) groupId!: string;
  @ForeignKey(() => ScimGroup, 'scim_group_members', 'group_id', { onDelete: 'CASCADE' }) group?: ScimGroup;
  @PrimaryColumn('uuid', { name: 'user_id' }) userId!: string;
  // Named by table: the end_users entity belongs to the end-users module (decision 0155).
  @ForeignKey('end_users', 'scim_group_members', 'user_id') user?: object;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ForeignKey(() => Workspace, 'scim_group_members', 'workspace_id') workspace?: Workspace;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  /** Join order: members list in the order they were added (a timestamp can tie within one INSERT). bigint: text in JS. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' }) seq!: string;
}
