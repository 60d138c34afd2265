import { Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { EndUserSession } from '../../sessions/entities/end-user-session.entity';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';

/**
 * An end-user session issued to an application by the authorization-code flow: which client holds its
 * refresh token, with which scope, and when the person authenticated (the ID token's auth_time on
 * refresh). Its tokens are the session's own (decision 0301's rotation); this row only binds them to
 * the client, so another client can neither refresh, revoke nor introspect them.
 */
@Entity('oauth_app_sessions')
@Index('oauth_app_sessions_browser_idx', ['workspaceId', 'browserSessionId'])
export class OAuthAppSession {
  @PrimaryColumn('uuid', { name: 'session_id' }) sessionId: string;
  @OneToOne(() => EndUserSession, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'session_id', foreignKeyConstraintName: 'oauth_app_sessions_session_id_fkey' })
  session?: EndUserSession;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ForeignKey(() => Workspace, 'oauth_app_sessions', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'client_id' }) clientId: string;
  @ForeignKey(() => OAuthClient, 'oauth_app_sessions', 'client_id') client?: OAuthClient;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @Column('uuid', { name: 'browser_session_id', nullable: true }) browserSessionId: string | null;
  @Column('text') scope: string;
  @Column('timestamptz', { name: 'auth_time' }) authTime: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
