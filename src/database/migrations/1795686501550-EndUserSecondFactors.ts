import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Second factors of end users (decisions 0310-0315).
 *
 * end_user_totp: one authenticator-app secret per user, AES-256-GCM under SECRETS_ENCRYPTION_KEY;
 * pending until confirmed_at is set. last_used_step is the RFC 6238 time step of the last accepted
 * code: a code is accepted only for a later step, so it cannot be replayed inside its window.
 *
 * end_user_recovery_codes: ten single-use codes per set, as HMACs; a new set deletes the old.
 *
 * end_user_mfa_challenges: a password accepted, a second step owed. The mfa_token is stored as
 * its SHA-256; it lives 5 minutes, works once, and dies after 5 wrong codes.
 *
 * end_user_sessions.amr: how the session was authenticated (RFC 8176 values).
 */
export class EndUserSecondFactors1795686501550 implements MigrationInterface {
  name = 'EndUserSecondFactors1795686501550';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE end_user_totp (
        user_id uuid PRIMARY KEY REFERENCES end_users(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        secret_encrypted text NOT NULL,
        confirmed_at timestamptz,
        last_used_step bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE end_user_recovery_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX end_user_recovery_codes_user_idx ON end_user_recovery_codes (workspace_id, user_id)`);
    await q.query(`
      CREATE TABLE end_user_mfa_challenges (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        kind text NOT NULL CHECK (kind IN ('api', 'browser')),
        reason text NOT NULL CHECK (reason IN ('second_factor', 'step_up')),
        methods text[] NOT NULL,
        anomaly_kinds text[] NOT NULL DEFAULT '{}',
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz
      )`);
    await q.query(`CREATE INDEX end_user_mfa_challenges_expires_idx ON end_user_mfa_challenges (expires_at)`);
    await q.query(`ALTER TABLE end_user_sessions ADD COLUMN amr text[] NOT NULL DEFAULT '{pwd}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE end_user_sessions DROP COLUMN amr`);
    await q.query(`DROP TABLE end_user_mfa_challenges`);
    await q.query(`DROP TABLE end_user_recovery_codes`);
    await q.query(`DROP TABLE end_user_totp`);
  }
}
