import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * sso_oidc_flows: one OpenID Connect sign-in through a connection, between the redirect to the
 * provider and its answer (decision 0412). Keyed by the SHA-256 of `state`; bound to the browser by
 * the SHA-256 of its flow cookie; holds the nonce, the PKCE verifier (sealed) and `next`. Spent once
 * (`used_at`), so a replayed callback is told apart from a forged state; lives 10 minutes.
 */
export class SsoOidcFlows1795800000001 implements MigrationInterface {
  name = 'SsoOidcFlows1795800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sso_oidc_flows (
        state_hash text PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES sso_connections(id) ON DELETE CASCADE,
        browser_hash text NOT NULL,
        nonce text NOT NULL,
        code_verifier_encrypted text NOT NULL,
        next text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX sso_oidc_flows_expires_idx ON sso_oidc_flows (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sso_oidc_flows`);
  }
}
