import { Check, Column, Entity, Unique } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import type { CodePurpose } from '../one-time-code';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** The live one-time code of an account for one purpose, as an HMAC (decision 0302); a resend replaces it. */
@Entity('end_user_codes')
@Unique('end_user_codes_user_id_purpose_key', ['userId', 'purpose'])
@Check('end_user_codes_purpose_check', `purpose IN ('email_verification', 'password_reset', 'sign_in')`)
export class EndUserCode extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'end_user_codes', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ForeignKey(() => EndUser, 'end_user_codes', 'user_id') user?: EndUser;
  @Column('text') purpose: CodePurpose;
  @Column('text', { name: 'code_hash' }) codeHash: string;
  @Column('int', { default: 0 }) attempts: number;
  @Column('timestamptz', { name: 'sent_at' }) sentAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
}
