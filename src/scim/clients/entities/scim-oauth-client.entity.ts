import { Column, CreateDateColumn, Entity, Index, Unique } from 'typeorm';
import { Developer } from '../../../developers/entities/developer.entity';
import { Workspace } from '../../../workspaces/entities/workspace.entity';

import type { JwkSet } from '../../../oauth/assertions/public-key-set';
import { ForeignKey } from '../../../database/foreign-key';
import { WorkspaceRow } from '../../../database/workspace-row';

export type { JwkSet, StoredJwk } from '../../../oauth/assertions/public-key-set';

/**
 * A SCIM OAuth client (decision 0900): an identity provider that gets short-lived access tokens for
 * this workspace's /scim/v2 from POST /oauth/token instead of holding a static `scim_` token.
 * Its secrets live in scim_oauth_client_secrets; `jwks`/`jwks_uri` hold the keys of its
 * private_key_jwt assertions; `federation_*` the external issuer it trusts for the JWT-bearer
 * grant. Revoked clients stay (revoked_at set) for the audit trail.
 */
@Entity('scim_oauth_clients')
@Unique('scim_oauth_clients_client_id_key', ['clientId'])
@Index('scim_oauth_clients_workspace_idx', ['workspaceId', 'createdAt'])
export class ScimOAuthClient extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'scim_oauth_clients', 'workspace_id') workspace?: Workspace;
  @Column('text', { name: 'client_id' }) clientId!: string;
  @Column('text') label!: string;
  @Column('jsonb', { nullable: true }) jwks!: JwkSet | null;
  @Column('text', { name: 'jwks_uri', nullable: true }) jwksUri!: string | null;
  @Column('text', { name: 'federation_issuer', nullable: true }) federationIssuer!: string | null;
  @Column('text', { name: 'federation_jwks_uri', nullable: true }) federationJwksUri!: string | null;
  @Column('text', { name: 'federation_subject', nullable: true }) federationSubject!: string | null;
  @Column('text', { name: 'federation_audience', nullable: true }) federationAudience!: string | null;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @ForeignKey(() => Developer, 'scim_oauth_clients', 'created_by', { onDelete: 'SET NULL' }) creator?: Developer | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
