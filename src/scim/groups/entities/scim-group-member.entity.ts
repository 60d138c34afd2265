import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../../workspaces/entities/workspace.entity';
import { ScimGroup } from './scim-group.entity';

/** One SCIM user (an end_users row without OAuth client) in one group of the same workspace. */
@Entity('scim_group_members')
// DELETE /Users/{id} removes every membership of the user.
@Index('scim_group_members_user_idx', ['userId'])
export class ScimGroupMember {
  @PrimaryColumn('uuid', { name: 'group_id' }) groupId!: string;
  @ManyToOne(() => ScimGroup, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'scim_group_members_group_id_fkey' })
  group?: ScimGroup;
  @PrimaryColumn('uuid', { name: 'user_id' }) userId!: string;
  // Named by table: the end_users entity belongs to the end-users module (decision 0155).
  @ManyToOne('end_users', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'scim_group_members_user_id_fkey' })
  user?: object;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'scim_group_members_workspace_id_fkey' })
  workspace?: Workspace;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  /** Join order: members list in the order they were added (a timestamp can tie within one INSERT). bigint: text in JS. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' }) seq!: string;
}
