import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { ForeignKey } from '../../database/foreign-key';

/** A user's authenticator-app secret (RFC 6238), sealed with the secret box; pending until confirmed. */
@Entity('end_user_totp')
export class EndUserTotp {
  @PrimaryColumn('uuid', { name: 'user_id' }) userId: string;
  @OneToOne(() => EndUser, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'end_user_totp_user_id_fkey' })
  user?: EndUser;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ForeignKey(() => Workspace, 'end_user_totp', 'workspace_id') workspace?: Workspace;
  @Column('text', { name: 'secret_encrypted' }) secretEncrypted: string;
  @Column('timestamptz', { name: 'confirmed_at', nullable: true }) confirmedAt: Date | null;
  /** The time step of the last accepted code; only a later step is accepted (no replay). */
  @Column('bigint', { name: 'last_used_step', default: 0 }) lastUsedStep: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
