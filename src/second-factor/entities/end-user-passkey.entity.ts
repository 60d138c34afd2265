import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';

/** A WebAuthn credential of an end user (decision 0320): its public key, sign counter and name. */
@Entity('end_user_passkeys')
@Unique('end_user_passkeys_credential_key', ['workspaceId', 'credentialId'])
@Index('end_user_passkeys_user_idx', ['workspaceId', 'userId'])
@Check('end_user_passkeys_device_type_check', `device_type IN ('singleDevice', 'multiDevice')`)
export class EndUserPasskey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'end_user_passkeys_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ManyToOne(() => EndUser, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'end_user_passkeys_user_id_fkey' })
  user?: EndUser;
  /** base64url, as the browser reports it. */
  @Column('text', { name: 'credential_id' }) credentialId: string;
  /** The COSE public key. */
  @Column('bytea', { name: 'public_key' }) publicKey: Buffer;
  @Column('bigint', { name: 'sign_count', default: 0 }) signCount: string;
  @Column('text', { array: true, default: () => "'{}'" }) transports: string[];
  @Column('text', { name: 'device_type' }) deviceType: 'singleDevice' | 'multiDevice';
  @Column('boolean', { name: 'backed_up', default: false }) backedUp: boolean;
  @Column('text') name: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
}
