import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';

/** A token id refused until it would have expired anyway (then pruned). */
@Entity('token_denylist')
@Index('token_denylist_expires_idx', ['expiresAt'])
export class TokenDenylistEntry {
  @PrimaryColumn('text') jti: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ForeignKey(() => Workspace, 'token_denylist', 'workspace_id') workspace?: Workspace;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt: Date;
}
