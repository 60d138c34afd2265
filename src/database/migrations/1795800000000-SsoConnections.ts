import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Enterprise SSO connections (docs/sso-connections.md, decisions 0410-0419).
 *
 * sso_connections: a workspace's upstream identity provider, OpenID Connect (we are the relying
 * party) or SAML 2.0 (we are the service provider). The protocol's settings live in its own
 * columns; the OIDC client secret and our private_key_jwt key are AES-256-GCM under
 * SECRETS_ENCRYPTION_KEY. `mapping` names the upstream claim or attribute for each profile field.
 *
 * sso_connection_domains: the email domains a connection serves, each verified by a DNS TXT record
 * before the hosted login routes its addresses there; a domain belongs to one connection per workspace.
 *
 * sso_bindings: which person of the directory an upstream subject (issuer + subject) is. One per
 * subject and one per person on a connection: the subject, once bound, wins over the email.
 *
 * sso_attempts: every upstream answer, accepted or refused with its reason, for the developer's
 * "why did SSO fail?" list.
 */
export class SsoConnections1795800000000 implements MigrationInterface {
  name = 'SsoConnections1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sso_connections (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name text NOT NULL,
        protocol text NOT NULL,
        jit boolean NOT NULL DEFAULT false,
        trust_upstream_mfa boolean NOT NULL DEFAULT false,
        mapping jsonb NOT NULL DEFAULT '{}',
        oidc_issuer text,
        oidc_client_id text,
        oidc_client_secret_encrypted text,
        oidc_token_endpoint_auth_method text,
        oidc_private_key_encrypted text,
        oidc_scopes text[] NOT NULL DEFAULT '{}',
        saml_idp_entity_id text,
        saml_idp_sso_url text,
        saml_idp_certificates text[] NOT NULL DEFAULT '{}',
        saml_allow_unsolicited boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sso_connections_protocol_check CHECK (protocol IN ('oidc', 'saml')),
        CONSTRAINT sso_connections_auth_method_check
          CHECK (oidc_token_endpoint_auth_method IN ('client_secret_basic', 'client_secret_post', 'private_key_jwt')),
        CONSTRAINT sso_connections_certificates_check CHECK (cardinality(saml_idp_certificates) <= 2)
      )`);
    await q.query(`CREATE INDEX sso_connections_workspace_idx ON sso_connections (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE sso_connection_domains (
        connection_id uuid NOT NULL REFERENCES sso_connections(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        domain text NOT NULL,
        verification_token text NOT NULL,
        verified_at timestamptz,
        checked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection_id, domain),
        CONSTRAINT sso_connection_domains_workspace_domain_key UNIQUE (workspace_id, domain)
      )`);
    await q.query(`
      CREATE TABLE sso_bindings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES sso_connections(id) ON DELETE CASCADE,
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sso_bindings_subject_key UNIQUE (connection_id, issuer, subject),
        CONSTRAINT sso_bindings_user_key UNIQUE (connection_id, user_id)
      )`);
    await q.query(`CREATE INDEX sso_bindings_user_idx ON sso_bindings (workspace_id, user_id)`);
    await q.query(`
      CREATE TABLE sso_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES sso_connections(id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT now(),
        outcome text NOT NULL CONSTRAINT sso_attempts_outcome_check CHECK (outcome IN ('success', 'failure')),
        reason text,
        subject text,
        email text,
        user_id uuid,
        request_id text
      )`);
    await q.query(`CREATE INDEX sso_attempts_connection_idx ON sso_attempts (connection_id, at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sso_attempts`);
    await q.query(`DROP TABLE sso_bindings`);
    await q.query(`DROP TABLE sso_connection_domains`);
    await q.query(`DROP TABLE sso_connections`);
  }
}
