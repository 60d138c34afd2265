import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An email domain is verified for one workspace at most (decision 0440): the hosted login routes its
 * addresses to that workspace's connection, so two workspaces holding the same verified domain would
 * make the routing ambiguous and let one company's workspace claim another's people. Unverified
 * claims may coexist; the first verification wins, the others are refused.
 */
export class SsoVerifiedDomainOnce1795844000000 implements MigrationInterface {
  name = 'SsoVerifiedDomainOnce1795844000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE UNIQUE INDEX sso_connection_domains_verified_key ON sso_connection_domains (domain) WHERE verified_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sso_connection_domains_verified_key`);
  }
}
