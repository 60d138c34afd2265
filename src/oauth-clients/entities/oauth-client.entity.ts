import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';

/** An application end users belong to; its secret is stored as SHA-256 only. */
@Entity('oauth_clients')
@Unique('oauth_clients_client_id_key', ['clientId'])
@Index('oauth_clients_workspace_idx', ['workspaceId', 'createdAt'])
export class OAuthClient {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'oauth_clients_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('text', { name: 'client_id' }) clientId: string;
  @Column('text', { name: 'client_secret_hash', select: false }) clientSecretHash: string;
  @Column('text') name: string;
  @Column('jsonb', { name: 'redirect_uris', default: [] }) redirectUris: string[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt: Date;
}
