import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { ForeignKey } from '../../database/foreign-key';

export type WebAuthnPurpose = 'register' | 'second_factor' | 'passwordless';

/** The challenge of one WebAuthn ceremony, as its SHA-256; the statement that uses it deletes it (decision 0321). */
@Entity('webauthn_challenges')
@Index('webauthn_challenges_expires_idx', ['expiresAt'])
@Check('webauthn_challenges_purpose_check', `purpose IN ('register', 'second_factor', 'passwordless')`)
export class WebAuthnChallenge {
  @PrimaryColumn('text', { name: 'challenge_hash' }) challengeHash: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ForeignKey(() => Workspace, 'webauthn_challenges', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'user_id', nullable: true }) userId: string | null;
  @ForeignKey(() => EndUser, 'webauthn_challenges', 'user_id', { onDelete: 'CASCADE', nullable: true }) user?: EndUser;
  @Column('text') purpose: WebAuthnPurpose;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
}
