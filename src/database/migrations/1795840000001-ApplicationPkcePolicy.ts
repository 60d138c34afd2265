import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A per-application PKCE policy (decision 0930): require_pkce, true by default and always for a
 * public client; a confidential client may turn it off, and its requests without PKCE then carry a
 * nonce. A code issued without PKCE has no challenge.
 */
export class ApplicationPkcePolicy1795840000001 implements MigrationInterface {
  name = 'ApplicationPkcePolicy1795840000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients ADD COLUMN require_pkce boolean NOT NULL DEFAULT true`);
    await q.query(
      `ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_public_pkce_check CHECK (require_pkce OR client_type = 'confidential')`,
    );
    await q.query(`ALTER TABLE oauth_authorization_codes ALTER COLUMN code_challenge DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM oauth_authorization_codes WHERE code_challenge IS NULL`);
    await q.query(`ALTER TABLE oauth_authorization_codes ALTER COLUMN code_challenge SET NOT NULL`);
    await q.query(`ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_public_pkce_check`);
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN require_pkce`);
  }
}
