import { Column, Entity, Index } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** One single-use recovery code, as an HMAC under a server key (decision 0311). */
@Entity('end_user_recovery_codes')
@Index('end_user_recovery_codes_user_idx', ['workspaceId', 'userId'])
export class EndUserRecoveryCode extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'end_user_recovery_codes', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ForeignKey(() => EndUser, 'end_user_recovery_codes', 'user_id') user?: EndUser;
  @Column('text', { name: 'code_hash' }) codeHash: string;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
