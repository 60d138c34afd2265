import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** One sign-in (decision 0300): kind 'api' (token pair) or 'browser' (hosted login cookie esid, stored hashed). */
@Entity('end_user_sessions')
// (workspace_id, user_id, created_at DESC): a descending key TypeORM cannot declare; the migration owns it.
@Index('end_user_sessions_user_idx', { synchronize: false })
@Unique('end_user_sessions_browser_token_hash_key', ['browserTokenHash'])
@Check('end_user_sessions_kind_check', `kind IN ('api', 'browser')`)
export class EndUserSession extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'end_user_sessions', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ForeignKey(() => EndUser, 'end_user_sessions', 'user_id') user?: EndUser;
  @Column('uuid', { name: 'oauth_client_id', nullable: true }) oauthClientId: string | null;
  @ForeignKey(() => OAuthClient, 'end_user_sessions', 'oauth_client_id', { onDelete: 'SET NULL' }) oauthClient?: OAuthClient | null;
  @Column('text') kind: 'api' | 'browser';
  @Column('text', { name: 'ip_address', nullable: true }) ipAddress: string | null;
  @Column('text', { name: 'user_agent', nullable: true }) userAgent: string | null;
  @Column('text', { name: 'browser_family', default: 'Other' }) browserFamily: string;
  @Column('text', { name: 'os_family', default: 'Other' }) osFamily: string;
  @Column('text', { nullable: true }) country: string | null;
  @Column('text', { nullable: true }) city: string | null;
  @Column('double precision', { nullable: true }) latitude: number | null;
  @Column('double precision', { nullable: true }) longitude: number | null;
  @Column('text', { name: 'browser_token_hash', nullable: true }) browserTokenHash: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'last_seen_at' }) lastSeenAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('text', { name: 'revoke_reason', nullable: true }) revokeReason: string | null;
  /** How the session was authenticated, RFC 8176 values (decision 0313). */
  @Column('text', { array: true, default: () => "'{pwd}'" }) amr: string[];
}
