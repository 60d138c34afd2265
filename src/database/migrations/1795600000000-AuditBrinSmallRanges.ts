import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sealer's once-a-second look for new audit events reads the BRIN index on created_at, then
 * every heap page of the block ranges it cannot rule out: always the last, still filling range,
 * and every range not summarized yet. Only vacuum summarized them, and autovacuum visits an
 * insert-only table after 20 % of it is new (never, where autovacuum is off), so at a million
 * events the sealer read up to 200,000 rows every second. Now the sealer summarizes new ranges
 * itself once a minute (AuditSealer), and a range is 16 pages instead of 128, so the open tail it
 * reads is about a thousand rows.
 */
export class AuditBrinSmallRanges1795600000000 implements MigrationInterface {
  name = 'AuditBrinSmallRanges1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_events_created_brin`);
    await q.query(`CREATE INDEX audit_events_created_brin ON audit_events USING brin (created_at) WITH (pages_per_range = 16)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_events_created_brin`);
    await q.query(`CREATE INDEX audit_events_created_brin ON audit_events USING brin (created_at)`);
  }
}
