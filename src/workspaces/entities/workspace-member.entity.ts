import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { Developer } from '../../developers/entities/developer.entity';
import { Workspace } from './workspace.entity';
import { ForeignKey } from '../../database/foreign-key';

export type WorkspaceRole = 'owner' | 'member';

/** A developer's membership of a workspace, with their role in it. */
@Entity('workspace_members')
@Index('workspace_members_developer_idx', ['developerId'])
@Check('workspace_members_role_check', `role IN ('owner', 'member')`)
export class WorkspaceMember {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ForeignKey(() => Workspace, 'workspace_members', 'workspace_id') workspace?: Workspace;
  @PrimaryColumn('uuid', { name: 'developer_id' }) developerId: string;
  @ForeignKey(() => Developer, 'workspace_members', 'developer_id') developer?: Developer;
  @Column('text') role: WorkspaceRole;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
