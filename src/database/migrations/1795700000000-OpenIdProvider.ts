import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The applications' OpenID Connect provider (decisions 0910-0916): what an application
 * (oauth_clients) says about itself as an OpenID client; the authorization codes (hash only, single
 * use, the session their exchange opened so a second use can revoke it); the end-user sessions
 * issued to an application (its grant: client, scope, auth_time); and the consents users gave to
 * third-party applications.
 */
export class OpenIdProvider1795700000000 implements MigrationInterface {
  name = 'OpenIdProvider1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE oauth_clients
        ADD COLUMN client_type text NOT NULL DEFAULT 'confidential' CONSTRAINT oauth_clients_client_type_check CHECK (client_type IN ('confidential', 'public')),
        ADD COLUMN first_party boolean NOT NULL DEFAULT true,
        ADD COLUMN subject_type text NOT NULL DEFAULT 'public' CONSTRAINT oauth_clients_subject_type_check CHECK (subject_type IN ('public', 'pairwise')),
        ADD COLUMN pairwise_salt text NOT NULL DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
        ADD COLUMN id_token_alg text NOT NULL DEFAULT 'RS256' CONSTRAINT oauth_clients_id_token_alg_check CHECK (id_token_alg IN ('RS256', 'ES256')),
        ADD COLUMN jwks jsonb,
        ADD COLUMN post_logout_redirect_uris jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`
      CREATE TABLE oauth_authorization_codes (
        code_hash text PRIMARY KEY,
        workspace_id uuid NOT NULL CONSTRAINT oauth_authorization_codes_workspace_id_fkey REFERENCES workspaces(id) ON DELETE CASCADE,
        client_id uuid NOT NULL CONSTRAINT oauth_authorization_codes_client_id_fkey REFERENCES oauth_clients(id) ON DELETE CASCADE,
        user_id uuid NOT NULL CONSTRAINT oauth_authorization_codes_user_id_fkey REFERENCES end_users(id) ON DELETE CASCADE,
        browser_session_id uuid,
        redirect_uri text NOT NULL,
        scope text NOT NULL,
        nonce text,
        code_challenge text NOT NULL,
        auth_time timestamptz NOT NULL,
        amr text[] NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        session_id uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_authorization_codes_expires_idx ON oauth_authorization_codes (expires_at)`);
    await q.query(`
      CREATE TABLE oauth_app_sessions (
        session_id uuid PRIMARY KEY CONSTRAINT oauth_app_sessions_session_id_fkey REFERENCES end_user_sessions(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL CONSTRAINT oauth_app_sessions_workspace_id_fkey REFERENCES workspaces(id) ON DELETE CASCADE,
        client_id uuid NOT NULL CONSTRAINT oauth_app_sessions_client_id_fkey REFERENCES oauth_clients(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        browser_session_id uuid,
        scope text NOT NULL,
        auth_time timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_app_sessions_browser_idx ON oauth_app_sessions (workspace_id, browser_session_id)`);
    await q.query(`
      CREATE TABLE oauth_consents (
        user_id uuid NOT NULL CONSTRAINT oauth_consents_user_id_fkey REFERENCES end_users(id) ON DELETE CASCADE,
        client_id uuid NOT NULL CONSTRAINT oauth_consents_client_id_fkey REFERENCES oauth_clients(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL CONSTRAINT oauth_consents_workspace_id_fkey REFERENCES workspaces(id) ON DELETE CASCADE,
        scope text NOT NULL,
        granted_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, client_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['oauth_consents', 'oauth_app_sessions', 'oauth_authorization_codes']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
    await q.query(`
      ALTER TABLE oauth_clients
        DROP COLUMN client_type, DROP COLUMN first_party, DROP COLUMN subject_type, DROP COLUMN pairwise_salt,
        DROP COLUMN id_token_alg, DROP COLUMN jwks, DROP COLUMN post_logout_redirect_uris`);
  }
}
