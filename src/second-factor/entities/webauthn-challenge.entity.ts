import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';

export type WebAuthnPurpose = 'register' | 'second_factor' | 'passwordless';

/** The challenge of one WebAuthn ceremony, as its SHA-256; the statement that uses it deletes it (decision 0321). */
@Entity('webauthn_challenges')
@Index('webauthn_challenges_expires_idx', ['expiresAt'])
@Check('webauthn_challenges_purpose_check', `purpose IN ('register', 'second_factor', 'passwordless')`)
export class WebAuthnChallenge {
  @PrimaryColumn('text', { name: 'challenge_hash' }) challengeHash: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'webauthn_challenges_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('uuid', { name: 'user_id', nullable: true }) userId: string | null;
  @ManyToOne(() => EndUser, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'webauthn_challenges_user_id_fkey' })
  user?: EndUser;
  @Column('text') purpose: WebAuthnPurpose;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
}
