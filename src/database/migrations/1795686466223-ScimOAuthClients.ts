import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OAuth authorization server (src/oauth/) and its first kind of client, the SCIM clients
 * (decisions 0900-0903): clients per workspace with several live secrets each (SHA-256 only), the keys they
 * sign private_key_jwt assertions with, the external issuer they trust for the JWT-bearer grant;
 * the server's own signing keys (private halves sealed with SECRETS_ENCRYPTION_KEY); and the
 * assertion ids already used (RFC 7523 §3 jti replay), kept until the assertion would expire.
 */
export class ScimOAuthClients1795686466223 implements MigrationInterface {
  name = 'ScimOAuthClients1795686466223';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scim_oauth_clients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        client_id text NOT NULL,
        label text NOT NULL,
        jwks jsonb,
        jwks_uri text,
        federation_issuer text,
        federation_jwks_uri text,
        federation_subject text,
        federation_audience text,
        created_by uuid REFERENCES developers(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        CONSTRAINT scim_oauth_clients_client_id_key UNIQUE (client_id)
      )`);
    await q.query(`CREATE INDEX scim_oauth_clients_workspace_idx ON scim_oauth_clients (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE scim_oauth_client_secrets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        client_id uuid NOT NULL REFERENCES scim_oauth_clients(id) ON DELETE CASCADE,
        secret_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX scim_oauth_client_secrets_client_idx ON scim_oauth_client_secrets (client_id, created_at)`);
    await q.query(`
      CREATE TABLE oauth_signing_keys (
        kid text PRIMARY KEY,
        alg text NOT NULL,
        public_jwk jsonb NOT NULL,
        private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE oauth_assertion_jtis (
        issuer text NOT NULL,
        jti text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (issuer, jti)
      )`);
    await q.query(`CREATE INDEX oauth_assertion_jtis_expires_idx ON oauth_assertion_jtis (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['oauth_assertion_jtis', 'oauth_signing_keys', 'scim_oauth_client_secrets', 'scim_oauth_clients']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
