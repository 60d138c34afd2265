import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import { EndUserSession } from '../../sessions/entities/end-user-session.entity';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';

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
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'oauth_app_sessions_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('uuid', { name: 'client_id' }) clientId: string;
  @ManyToOne(() => OAuthClient, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'oauth_app_sessions_client_id_fkey' })
  client?: OAuthClient;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @Column('uuid', { name: 'browser_session_id', nullable: true }) browserSessionId: string | null;
  @Column('text') scope: string;
  @Column('timestamptz', { name: 'auth_time' }) authTime: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
