import { Column, Entity, Index } from 'typeorm';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/**
 * An end user: an account of one OAuth client, or (no client) a workspace's directory account
 * provisioned over SCIM (decision 0100). Unique per workspace on (client, lower(email)).
 */
@Entity('end_users')
// (workspace_id, COALESCE(oauth_client_id, nil uuid), lower(email)), unique: expressions TypeORM cannot declare.
@Index('end_users_identity_key', { synchronize: false })
// (workspace_id, lower(email)) and (lower(email)): expression indexes; the migration owns them.
@Index('end_users_workspace_email_idx', { synchronize: false })
@Index('end_users_email_idx', { synchronize: false })
@Index('end_users_workspace_created_idx', ['workspaceId', 'createdAt', 'id'])
// (workspace_id, created_at, id) of SCIM users only (a partial index): SCIM pages count and skip on it, index-only.
@Index('end_users_scim_page_idx', { synchronize: false })
export class EndUser extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'end_users', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'oauth_client_id', nullable: true }) oauthClientId: string | null;
  @ForeignKey(() => OAuthClient, 'end_users', 'oauth_client_id', { onDelete: 'CASCADE' }) oauthClient?: OAuthClient | null;
  @Column('text') email: string;
  @Column('text', { name: 'first_name', default: '' }) firstName: string;
  @Column('text', { name: 'last_name', default: '' }) lastName: string;
  @Column('boolean', { name: 'is_active', default: true }) isActive: boolean;
  @Column('boolean', { name: 'email_verified', default: false }) emailVerified: boolean;
  @Column('text', { name: 'password_hash', nullable: true }) passwordHash: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt: Date;
  @Column('timestamptz', { name: 'password_changed_at', nullable: true }) passwordChangedAt: Date | null;
}
