import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys of end users (decisions 0320-0323).
 *
 * end_user_passkeys: WebAuthn credentials, several per user, each with its COSE public key, the
 * last sign counter the authenticator reported, and the name the user gave it. A credential id is
 * unique within a workspace (the passwordless sign-in finds the account by it).
 *
 * webauthn_challenges: the random challenge of one registration or authentication ceremony,
 * stored as its SHA-256, bound to its purpose, workspace and (except for a passwordless sign-in)
 * user; deleted by the statement that uses it, so it works once, and it lives 5 minutes.
 */
export class EndUserPasskeys1795710000000 implements MigrationInterface {
  name = 'EndUserPasskeys1795710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE end_user_passkeys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        credential_id text NOT NULL,
        public_key bytea NOT NULL,
        sign_count bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        device_type text NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
        backed_up boolean NOT NULL DEFAULT false,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        CONSTRAINT end_user_passkeys_credential_key UNIQUE (workspace_id, credential_id)
      )`);
    await q.query(`CREATE INDEX end_user_passkeys_user_idx ON end_user_passkeys (workspace_id, user_id)`);
    await q.query(`
      CREATE TABLE webauthn_challenges (
        challenge_hash text PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid REFERENCES end_users(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('register', 'second_factor', 'passwordless')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webauthn_challenges`);
    await q.query(`DROP TABLE end_user_passkeys`);
  }
}
