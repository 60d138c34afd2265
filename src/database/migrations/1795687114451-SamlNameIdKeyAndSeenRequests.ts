import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The deployment's NameID key when SAML_NAMEID_SECRET is unset (sealed), or the check value of the
 * variable's key (decision 0207); and the AuthnRequest IDs each SP has used, for the replay check
 * (decision 0208).
 */
export class SamlNameIdKeyAndSeenRequests1795687114451 implements MigrationInterface {
  name = 'SamlNameIdKeyAndSeenRequests1795687114451';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE saml_nameid_keys (
        id smallint PRIMARY KEY DEFAULT 1 CONSTRAINT saml_nameid_keys_singleton CHECK (id = 1),
        sealed_key text,
        check_value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE saml_seen_requests (
        service_provider_id uuid NOT NULL REFERENCES saml_service_providers(id) ON DELETE CASCADE,
        request_id text NOT NULL,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (service_provider_id, request_id)
      )`);
    await q.query(`CREATE INDEX saml_seen_requests_expiry_idx ON saml_seen_requests (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE saml_seen_requests`);
    await q.query(`DROP TABLE saml_nameid_keys`);
  }
}
