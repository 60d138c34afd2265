import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Workspace } from '../../../workspaces/entities/workspace.entity';
import { ScimOAuthClient } from './scim-oauth-client.entity';

/**
 * One secret of a SCIM OAuth client: shown once, only its SHA-256 stored. Several can be live at
 * once (rotation without downtime); each expires, and revoking one kills the tokens issued under it.
 */
@Entity('scim_oauth_client_secrets')
@Index('scim_oauth_client_secrets_client_idx', ['clientId', 'createdAt'])
export class ScimOAuthClientSecret {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'scim_oauth_client_secrets_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('uuid', { name: 'client_id' }) clientId!: string;
  @ManyToOne(() => ScimOAuthClient, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'scim_oauth_client_secrets_client_id_fkey' })
  client?: ScimOAuthClient;
  @Column('text', { name: 'secret_hash' }) secretHash!: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
