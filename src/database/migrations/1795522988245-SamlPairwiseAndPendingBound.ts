import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Parked SSO requests remember the client address that parked them, so each address keeps at
 * most SAML_PENDING_PER_CLIENT of them (decision 0205). A persistent NameID is now a pairwise
 * value derived from the user id (decision 0203): registrations that named another field for it
 * are set to "id", which is what they now assert.
 */
export class SamlPairwiseAndPendingBound1795522988245 implements MigrationInterface {
  name = 'SamlPairwiseAndPendingBound1795522988245';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE saml_pending_requests ADD COLUMN client_ip text`);
    await q.query(`CREATE INDEX saml_pending_requests_client_idx ON saml_pending_requests (client_ip, created_at)`);
    await q.query(
      `UPDATE saml_service_providers SET name_id_attribute = 'id', updated_at = now()
        WHERE name_id_format = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' AND name_id_attribute <> 'id'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX saml_pending_requests_client_idx`);
    await q.query(`ALTER TABLE saml_pending_requests DROP COLUMN client_ip`);
  }
}
