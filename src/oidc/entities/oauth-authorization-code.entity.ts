import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';

/**
 * An authorization code (RFC 6749 §4.1.2), stored as its SHA-256 only. It is spent once; the session
 * its exchange opened is kept so that presenting it again revokes what the first use issued
 * (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3).
 */
@Entity('oauth_authorization_codes')
@Index('oauth_authorization_codes_expires_idx', ['expiresAt'])
export class OAuthAuthorizationCode {
  @PrimaryColumn('text', { name: 'code_hash' }) codeHash: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ForeignKey(() => Workspace, 'oauth_authorization_codes', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'client_id' }) clientId: string;
  @ForeignKey(() => OAuthClient, 'oauth_authorization_codes', 'client_id') client?: OAuthClient;
  @Column('uuid', { name: 'user_id' }) userId: string;
  // Named by table: the end_users entity belongs to its own module.
  @ForeignKey('end_users', 'oauth_authorization_codes', 'user_id') user?: object;
  @Column('uuid', { name: 'browser_session_id', nullable: true }) browserSessionId: string | null;
  @Column('text', { name: 'redirect_uri' }) redirectUri: string;
  @Column('text') scope: string;
  @Column('text', { nullable: true }) nonce: string | null;
  /** Null when the request came without PKCE (a confidential client with require_pkce false, decision 0930). */
  @Column('text', { name: 'code_challenge', nullable: true }) codeChallenge: string | null;
  @Column('timestamptz', { name: 'auth_time' }) authTime: Date;
  @Column('text', { array: true }) amr: string[];
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
  @Column('uuid', { name: 'session_id', nullable: true }) sessionId: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
