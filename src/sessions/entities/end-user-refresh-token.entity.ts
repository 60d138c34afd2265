import { Column, Entity, Index, Unique } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUserSession } from './end-user-session.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** A refresh token of an API session, stored hashed; it works once (decision 0301). */
@Entity('end_user_refresh_tokens')
@Unique('end_user_refresh_tokens_token_hash_key', ['tokenHash'])
@Index('end_user_refresh_tokens_session_idx', ['sessionId'])
export class EndUserRefreshToken extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'end_user_refresh_tokens', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'session_id' }) sessionId: string;
  @ForeignKey(() => EndUserSession, 'end_user_refresh_tokens', 'session_id') session?: EndUserSession;
  @Column('text', { name: 'token_hash' }) tokenHash: string;
  /** The id of the access token issued with it, denylisted with it when the session is revoked. */
  @Column('uuid', { name: 'access_jti' }) accessJti: string;
  @Column('timestamptz', { name: 'access_expires_at' }) accessExpiresAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
