import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';

/** A token id refused until it would have expired anyway (then pruned). */
@Entity('token_denylist')
@Index('token_denylist_expires_idx', ['expiresAt'])
export class TokenDenylistEntry {
  @PrimaryColumn('text') jti: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'token_denylist_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt: Date;
}
