import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Step-up on risk (decision 0316): a workspace's sign-in policy per anomaly kind that can
 * be judged before the session exists (new_device, new_ip): allow (the default, today's behaviour),
 * challenge (a second step first) or block. No row means every kind is allowed.
 *
 * end_user_codes gains the purpose sign_in: the 6-digit code mailed to a user without a second
 * factor whose sign-in a policy challenged.
 */
export class SignInPolicies1795688130344 implements MigrationInterface {
  name = 'SignInPolicies1795688130344';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sign_in_policies (
        workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
        new_device text NOT NULL DEFAULT 'allow' CHECK (new_device IN ('allow', 'challenge', 'block')),
        new_ip text NOT NULL DEFAULT 'allow' CHECK (new_ip IN ('allow', 'challenge', 'block')),
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`ALTER TABLE end_user_codes DROP CONSTRAINT end_user_codes_purpose_check`);
    await q.query(
      `ALTER TABLE end_user_codes ADD CONSTRAINT end_user_codes_purpose_check CHECK (purpose IN ('email_verification', 'password_reset', 'sign_in'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM end_user_codes WHERE purpose = 'sign_in'`);
    await q.query(`ALTER TABLE end_user_codes DROP CONSTRAINT end_user_codes_purpose_check`);
    await q.query(
      `ALTER TABLE end_user_codes ADD CONSTRAINT end_user_codes_purpose_check CHECK (purpose IN ('email_verification', 'password_reset'))`,
    );
    await q.query(`DROP TABLE sign_in_policies`);
  }
}
