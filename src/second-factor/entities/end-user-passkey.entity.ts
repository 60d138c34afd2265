import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** A WebAuthn credential of an end user (decision 0320): its public key, sign counter and name. */
@Entity('end_user_passkeys')
@Unique('end_user_passkeys_credential_key', ['workspaceId', 'credentialId'])
@Index('end_user_passkeys_user_idx', ['workspaceId', 'userId'])
@Check('end_user_passkeys_device_type_check', `device_type IN ('singleDevice', 'multiDevice')`)
export class EndUserPasskey extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'end_user_passkeys', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ForeignKey(() => EndUser, 'end_user_passkeys', 'user_id') user?: EndUser;
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
