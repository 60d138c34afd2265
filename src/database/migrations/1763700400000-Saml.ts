import { MigrationInterface, QueryRunner } from 'typeorm';

/** SAML service-provider registrations and the AuthnRequests parked while the user signs in. */
export class Saml1763700400000 implements MigrationInterface {
  name = 'Saml1763700400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE saml_service_providers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name text NOT NULL,
        sp_entity_id text NOT NULL,
        acs_url text NOT NULL,
        name_id_format text NOT NULL,
        name_id_attribute text NOT NULL DEFAULT 'email',
        sign_assertions boolean NOT NULL DEFAULT true,
        attribute_mapping jsonb NOT NULL DEFAULT '{}',
        sp_cert_pem text,
        default_relay_state text,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Issuer lookup is an exact match on the entity id, unique across the service.
    await q.query(`CREATE UNIQUE INDEX saml_service_providers_entity_id_key ON saml_service_providers (sp_entity_id)`);
    await q.query(`CREATE INDEX saml_service_providers_workspace_idx ON saml_service_providers (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE saml_pending_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        service_provider_id uuid NOT NULL REFERENCES saml_service_providers(id) ON DELETE CASCADE,
        ticket_hash text NOT NULL UNIQUE,
        request jsonb NOT NULL,
        relay_state text,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX saml_pending_requests_expiry_idx ON saml_pending_requests (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE saml_pending_requests`);
    await q.query(`DROP TABLE saml_service_providers`);
  }
}
