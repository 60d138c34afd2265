import { Check, Column, Entity, Index } from 'typeorm';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

export type SsoProtocol = 'oidc' | 'saml';
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** Our profile fields, each read from the upstream claim (OIDC) or attribute (SAML) named here. */
export interface ProfileMapping {
  email?: string;
  given_name?: string;
  family_name?: string;
  groups?: string;
  /** SAML: an immutable attribute used as the subject instead of the NameID. */
  subject?: string;
}

/**
 * A workspace's upstream identity provider (docs/sso-connections.md): OpenID Connect, where we
 * are the relying party, or SAML 2.0, where we are the service provider. Secrets are
 * AES-256-GCM under SECRETS_ENCRYPTION_KEY and never leave the service.
 */
@Entity('sso_connections')
@Index('sso_connections_workspace_idx', ['workspaceId', 'createdAt'])
@Check('sso_connections_protocol_check', `protocol IN ('oidc', 'saml')`)
@Check(
  'sso_connections_auth_method_check',
  `oidc_token_endpoint_auth_method IN ('client_secret_basic', 'client_secret_post', 'private_key_jwt')`,
)
@Check('sso_connections_certificates_check', `cardinality(saml_idp_certificates) <= 2`)
export class SsoConnection extends WorkspaceRow {
  // Named by table: the workspaces entity belongs to its own module.
  @ForeignKey('workspaces', 'sso_connections', 'workspace_id') workspace?: object;
  @Column('text') name!: string;
  @Column('text') protocol!: SsoProtocol;
  /** Just-in-time creation: a verified upstream identity with no person of the directory gets one. */
  @Column('boolean', { default: false }) jit!: boolean;
  /** Whether the upstream's MFA claim (OIDC amr/acr, SAML AuthnContext) counts as our `mfa`. */
  @Column('boolean', { name: 'trust_upstream_mfa', default: false }) trustUpstreamMfa!: boolean;
  @Column('jsonb', { default: {} }) mapping!: ProfileMapping;
  @Column('text', { name: 'oidc_issuer', nullable: true }) oidcIssuer!: string | null;
  @Column('text', { name: 'oidc_client_id', nullable: true }) oidcClientId!: string | null;
  @Column('text', { name: 'oidc_client_secret_encrypted', nullable: true }) oidcClientSecretEncrypted!: string | null;
  @Column('text', { name: 'oidc_token_endpoint_auth_method', nullable: true })
  oidcTokenEndpointAuthMethod!: TokenEndpointAuthMethod | null;
  /** Our private JWK for private_key_jwt, sealed; its public half is served at the connection's jwks URL. */
  @Column('text', { name: 'oidc_private_key_encrypted', nullable: true }) oidcPrivateKeyEncrypted!: string | null;
  @Column('text', { name: 'oidc_scopes', array: true, default: () => "'{}'" }) oidcScopes!: string[];
  @Column('text', { name: 'saml_idp_entity_id', nullable: true }) samlIdpEntityId!: string | null;
  @Column('text', { name: 'saml_idp_sso_url', nullable: true }) samlIdpSsoUrl!: string | null;
  /** PEM bodies; two at once while the IdP rolls its signing certificate over. */
  @Column('text', { name: 'saml_idp_certificates', array: true, default: () => "'{}'" }) samlIdpCertificates!: string[];
  @Column('boolean', { name: 'saml_allow_unsolicited', default: false }) samlAllowUnsolicited!: boolean;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}
