import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';

/** What a person allowed a third-party application (decision 0915): remembered until they revoke it. */
@Entity('oauth_consents')
export class OAuthConsent {
  @PrimaryColumn('uuid', { name: 'user_id' }) userId: string;
  // Named by table: the end_users entity belongs to its own module.
  @ManyToOne('end_users', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'oauth_consents_user_id_fkey' })
  user?: object;
  @PrimaryColumn('uuid', { name: 'client_id' }) clientId: string;
  @ManyToOne(() => OAuthClient, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'oauth_consents_client_id_fkey' })
  client?: OAuthClient;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'oauth_consents_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('text') scope: string;
  @Column('timestamptz', { name: 'granted_at' }) grantedAt: Date;
}
