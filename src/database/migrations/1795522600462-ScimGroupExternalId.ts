import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Groups keep the identity provider's externalId (RFC 7643 §3.1), per workspace. Not unique:
 * the client issues it and RFC 7643 gives it no uniqueness; the index serves `externalId eq`
 * filters, which is how Entra finds a group it has provisioned before.
 */
export class ScimGroupExternalId1795522600462 implements MigrationInterface {
  name = 'ScimGroupExternalId1795522600462';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE scim_groups ADD COLUMN external_id text`);
    await q.query(`CREATE INDEX scim_groups_external_id_idx ON scim_groups (workspace_id, external_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS scim_groups_external_id_idx`);
    await q.query(`ALTER TABLE scim_groups DROP COLUMN IF EXISTS external_id`);
  }
}
