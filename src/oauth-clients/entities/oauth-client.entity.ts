import { Check, Column, CreateDateColumn, Entity, Index, Unique } from 'typeorm';
import type { JwkSet } from '../../oauth/assertions/public-key-set';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** An application end users belong to; its secret is stored as SHA-256 only. */
@Entity('oauth_clients')
@Unique('oauth_clients_client_id_key', ['clientId'])
@Index('oauth_clients_workspace_idx', ['workspaceId', 'createdAt'])
@Check('oauth_clients_client_type_check', `client_type IN ('confidential', 'public')`)
@Check('oauth_clients_subject_type_check', `subject_type IN ('public', 'pairwise')`)
@Check('oauth_clients_id_token_alg_check', `id_token_alg IN ('RS256', 'ES256')`)
@Check('oauth_clients_public_pkce_check', `require_pkce OR client_type = 'confidential'`)
export class OAuthClient extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'oauth_clients', 'workspace_id') workspace?: Workspace;
  @Column('text', { name: 'client_id' }) clientId: string;
  @Column('text', { name: 'client_secret_hash', select: false }) clientSecretHash: string;
  @Column('text') name: string;
  @Column('jsonb', { name: 'redirect_uris', default: [] }) redirectUris: string[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt: Date;
  /** OpenID client metadata (decision 0913): a public client (native, SPA) has no secret and authenticates with none. */
  @Column('text', { name: 'client_type', default: 'confidential' }) clientType: 'confidential' | 'public';
  /** First-party applications skip the consent screen; third-party ones ask once (decision 0915). */
  @Column('boolean', { name: 'first_party', default: true }) firstParty: boolean;
  @Column('text', { name: 'subject_type', default: 'public' }) subjectType: 'public' | 'pairwise';
  /** Per-client key of pairwise subject identifiers (OpenID Connect Core §8.1); never shown. */
  @Column('text', {
    name: 'pairwise_salt',
    select: false,
    // The migration's default (two random UUIDs) as TypeORM reads it back, casts stripped; the service sets 32 random bytes.
    default: () => "replace(((gen_random_uuid())|| (gen_random_uuid())), '-', '')",
  })
  pairwiseSalt: string;
  @Column('text', { name: 'id_token_alg', default: 'RS256' }) idTokenAlg: 'RS256' | 'ES256';
  /** Public keys of its private_key_jwt client assertions (RFC 7523 §2.2). */
  @Column('jsonb', { nullable: true }) jwks: JwkSet | null;
  @Column('jsonb', { name: 'post_logout_redirect_uris', default: [] }) postLogoutRedirectUris: string[];
  /** Its hosted login offers "Create an account" (decision 0317). */
  @Column('boolean', { name: 'allow_signup', default: false }) allowSignup: boolean;
  /** Whether its authorization requests must carry PKCE; only a confidential client may turn it off (decision 0930). */
  @Column('boolean', { name: 'require_pkce', default: true }) requirePkce: boolean;
}
