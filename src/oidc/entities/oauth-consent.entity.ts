import { Column, Entity, PrimaryColumn } from 'typeorm';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';

/** What a person allowed a third-party application (decision 0915): remembered until they revoke it. */
@Entity('oauth_consents')
export class OAuthConsent {
  @PrimaryColumn('uuid', { name: 'user_id' }) userId: string;
  // Named by table: the end_users entity belongs to its own module.
  @ForeignKey('end_users', 'oauth_consents', 'user_id') user?: object;
  @PrimaryColumn('uuid', { name: 'client_id' }) clientId: string;
  @ForeignKey(() => OAuthClient, 'oauth_consents', 'client_id') client?: OAuthClient;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ForeignKey(() => Workspace, 'oauth_consents', 'workspace_id') workspace?: Workspace;
  @Column('text') scope: string;
  @Column('timestamptz', { name: 'granted_at' }) grantedAt: Date;
}
