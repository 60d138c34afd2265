import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The assertion IDs each SAML connection has accepted, kept until the assertion could no longer
 * be presented (docs/sso-connections.md): every instance claims an ID in this one table, so an assertion is
 * accepted once across the fleet.
 */
export class SsoSamlAssertionIds1795805000001 implements MigrationInterface {
  name = 'SsoSamlAssertionIds1795805000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sso_saml_assertion_ids (
        connection_id uuid NOT NULL,
        assertion_id text NOT NULL,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (connection_id, assertion_id)
      )`);
    await q.query(`CREATE INDEX sso_saml_assertion_ids_expiry_idx ON sso_saml_assertion_ids (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sso_saml_assertion_ids`);
  }
}
