import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';

/** One single-use recovery code, as an HMAC under a server key (decision 0311). */
@Entity('end_user_recovery_codes')
@Index('end_user_recovery_codes_user_idx', ['workspaceId', 'userId'])
export class EndUserRecoveryCode {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'end_user_recovery_codes_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ManyToOne(() => EndUser, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'end_user_recovery_codes_user_id_fkey' })
  user?: EndUser;
  @Column('text', { name: 'code_hash' }) codeHash: string;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
