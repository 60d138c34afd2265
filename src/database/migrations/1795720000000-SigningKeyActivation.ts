import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing-key rotation (decision 0918): a key is published before it signs. activates_at
 * says from when it signs; a rotated-out key gets retired_at = its successor's activates_at and is
 * still published for a day after (longer than any token it signed lives). Existing keys signed
 * from their creation.
 */
export class SigningKeyActivation1795720000000 implements MigrationInterface {
  name = 'SigningKeyActivation1795720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_signing_keys ADD COLUMN activates_at timestamptz`);
    await q.query(`UPDATE oauth_signing_keys SET activates_at = created_at`);
    await q.query(`ALTER TABLE oauth_signing_keys ALTER COLUMN activates_at SET NOT NULL, ALTER COLUMN activates_at SET DEFAULT now()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_signing_keys DROP COLUMN activates_at`);
  }
}
