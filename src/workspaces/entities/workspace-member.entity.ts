import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Developer } from '../../developers/entities/developer.entity';
import { Workspace } from './workspace.entity';

export type WorkspaceRole = 'owner' | 'member';

/** A developer's membership of a workspace, with their role in it. */
@Entity('workspace_members')
@Index('workspace_members_developer_idx', ['developerId'])
@Check('workspace_members_role_check', `role IN ('owner', 'member')`)
export class WorkspaceMember {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'workspace_members_workspace_id_fkey' })
  workspace?: Workspace;
  @PrimaryColumn('uuid', { name: 'developer_id' }) developerId: string;
  @ManyToOne(() => Developer, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'developer_id', foreignKeyConstraintName: 'workspace_members_developer_id_fkey' })
  developer?: Developer;
  @Column('text') role: WorkspaceRole;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
