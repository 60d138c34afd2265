import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { Workspace } from '../../../workspaces/entities/workspace.entity';
import { ScimOAuthClient } from './scim-oauth-client.entity';
import { ForeignKey } from '../../../database/foreign-key';
import { WorkspaceRow } from '../../../database/workspace-row';

/**
 * One secret of a SCIM OAuth client: shown once, only its SHA-256 stored. Several can be live at
 * once (rotation without downtime); each expires, and revoking one kills the tokens issued under it.
 */
@Entity('scim_oauth_client_secrets')
@Index('scim_oauth_client_secrets_client_idx', ['clientId', 'createdAt'])
export class ScimOAuthClientSecret extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'scim_oauth_client_secrets', 'workspace_id') workspace?: Workspace;
  @Column('uuid', { name: 'client_id' }) clientId!: string;
  @ForeignKey(() => ScimOAuthClient, 'scim_oauth_client_secrets', 'client_id') client?: ScimOAuthClient;
  @Column('text', { name: 'secret_hash' }) secretHash!: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
