import { Column, CreateDateColumn, Entity, Index, Unique } from 'typeorm';
import { Workspace } from '../../../workspaces/entities/workspace.entity';
import { Developer } from '../../../developers/entities/developer.entity';
import { ForeignKey } from '../../../database/foreign-key';
import { WorkspaceRow } from '../../../database/workspace-row';

/**
 * A SCIM bearer token (spec A): `scim_` + 40 random bytes, shown once, only its SHA-256 stored.
 * One workspace each; revoked tokens stay (is_active false, revoked_at set) for the audit trail.
 */
@Entity('scim_tokens')
@Unique('scim_tokens_token_hash_key', ['tokenHash'])
@Index('scim_tokens_workspace_idx', ['workspaceId', 'createdAt'])
export class ScimToken extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'scim_tokens', 'workspace_id') workspace?: Workspace;
  @Column('text') label!: string;
  @Column('text', { name: 'token_hash' }) tokenHash!: string;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt!: Date | null;
  @Column('boolean', { name: 'is_active', default: true }) isActive!: boolean;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @ForeignKey(() => Developer, 'scim_tokens', 'created_by', { onDelete: 'SET NULL' }) creator?: Developer | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
