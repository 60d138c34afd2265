import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

export type ChallengeReason = 'second_factor' | 'step_up';

/**
 * A sign-in whose password was accepted and which owes a second step (decision 0312). The
 * mfa_token is stored as its SHA-256; single use, 5 minutes, 5 wrong codes void it.
 */
@Entity('end_user_mfa_challenges')
@Unique('end_user_mfa_challenges_token_hash_key', ['tokenHash'])
@Index('end_user_mfa_challenges_expires_idx', ['expiresAt'])
@Check('end_user_mfa_challenges_kind_check', `kind IN ('api', 'browser')`)
@Check('end_user_mfa_challenges_reason_check', `reason IN ('second_factor', 'step_up')`)
export class EndUserMfaChallenge extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'end_user_mfa_challenges', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ForeignKey(() => EndUser, 'end_user_mfa_challenges', 'user_id') user?: EndUser;
  @Column('text', { name: 'token_hash' }) tokenHash: string;
  @Column('text') kind: 'api' | 'browser';
  @Column('text') reason: ChallengeReason;
  @Column('text', { array: true }) methods: string[];
  @Column('text', { name: 'anomaly_kinds', array: true, default: () => "'{}'" }) anomalyKinds: string[];
  @Column('int', { default: 0 }) attempts: number;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'consumed_at', nullable: true }) consumedAt: Date | null;
}
