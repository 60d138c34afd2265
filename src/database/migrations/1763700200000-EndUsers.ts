import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * End-user sign-in and mail: sessions (API and browser), refresh tokens, one-time codes
 * (email verification, password reset), the access-token denylist, mail templates and the mail outbox.
 */
export class EndUsers1763700200000 implements MigrationInterface {
  name = 'EndUsers1763700200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE end_users ADD COLUMN password_changed_at timestamptz`);
    await q.query(`CREATE INDEX end_users_workspace_email_idx ON end_users (workspace_id, lower(email))`);
    await q.query(`CREATE INDEX end_users_email_idx ON end_users (lower(email))`);

    // One row per sign-in. kind 'api': tokens from /e/v1/auth/login/; kind 'browser': the esid cookie.
    await q.query(`
      CREATE TABLE end_user_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        oauth_client_id uuid REFERENCES oauth_clients(id) ON DELETE SET NULL,
        kind text NOT NULL CHECK (kind IN ('api', 'browser')),
        ip_address text,
        user_agent text,
        browser_family text NOT NULL DEFAULT 'Other',
        os_family text NOT NULL DEFAULT 'Other',
        country text,
        city text,
        latitude double precision,
        longitude double precision,
        browser_token_hash text UNIQUE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        revoke_reason text
      )`);
    await q.query(`CREATE INDEX end_user_sessions_user_idx ON end_user_sessions (workspace_id, user_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE end_user_refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        session_id uuid NOT NULL REFERENCES end_user_sessions(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        access_jti uuid NOT NULL,
        access_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX end_user_refresh_tokens_session_idx ON end_user_refresh_tokens (session_id)`);

    // At most one live code per account and purpose: a resend replaces the row.
    await q.query(`
      CREATE TABLE end_user_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('email_verification', 'password_reset')),
        code_hash text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        sent_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        UNIQUE (user_id, purpose)
      )`);

    // Token ids refused until they would have expired anyway (then pruned).
    await q.query(`
      CREATE TABLE token_denylist (
        jti text PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX token_denylist_expires_idx ON token_denylist (expires_at)`);

    await q.query(`
      CREATE TABLE email_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name text NOT NULL,
        subject text NOT NULL,
        from_name text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (workspace_id, name)
      )`);

    // Rendered messages, written in the transaction of the change that caused them; bodies are
    // cleared once delivered so codes do not linger at rest.
    await q.query(`
      CREATE TABLE mail_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        template text NOT NULL,
        to_address text NOT NULL,
        from_name text NOT NULL,
        subject text NOT NULL,
        html text,
        text text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        message_id text,
        file_name text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
    await q.query(`CREATE INDEX mail_outbox_workspace_idx ON mail_outbox (workspace_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'mail_outbox',
      'email_templates',
      'token_denylist',
      'end_user_codes',
      'end_user_refresh_tokens',
      'end_user_sessions',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table} CASCADE`);
    }
    await q.query(`DROP INDEX IF EXISTS end_users_workspace_email_idx`);
    await q.query(`DROP INDEX IF EXISTS end_users_email_idx`);
    await q.query(`ALTER TABLE end_users DROP COLUMN IF EXISTS password_changed_at`);
  }
}
