import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Area D: anomaly records and the geolocation cache. geo_cache has no workspace_id on purpose:
 * IP -> place is public knowledge, not tenant data, and one entry serves every tenant (0403).
 */
export const GEO_CACHE_DDL = [
  `CREATE TABLE geo_cache (
     ip text PRIMARY KEY,
     data jsonb NOT NULL,
     expires_at timestamptz NOT NULL
   )`,
  `CREATE INDEX geo_cache_expires_at_idx ON geo_cache (expires_at)`,
];

export class Anomalies1763700500000 implements MigrationInterface {
  name = 'Anomalies1763700500000';

  async up(q: QueryRunner): Promise<void> {
    for (const ddl of GEO_CACHE_DDL) await q.query(ddl);
    await q.query(`
      CREATE TABLE security_anomalies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        oauth_client_id uuid,
        -- No foreign key: anomalies are kept indefinitely (spec limits), even if session rows are pruned.
        session_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('new_device', 'new_ip', 'new_country', 'impossible_travel')),
        severity text NOT NULL CHECK (severity IN ('info', 'warn', 'critical')),
        ip_address text,
        country text,
        city text,
        user_agent text,
        message text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        notified_at timestamptz,
        acknowledged_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // A redelivered login_success must not record the same finding twice.
    await q.query(`CREATE UNIQUE INDEX security_anomalies_session_kind_key ON security_anomalies (session_id, kind)`);
    // GET /user/security/anomalies/: one user's records, newest first.
    await q.query(
      `CREATE INDEX security_anomalies_user_created_idx ON security_anomalies (workspace_id, user_id, created_at DESC, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS security_anomalies`);
    await q.query(`DROP TABLE IF EXISTS geo_cache`);
  }
}
