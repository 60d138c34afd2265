import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sealer's once-a-second look for new audit events reads the BRIN index on created_at, then
 * every heap page of the block ranges it cannot rule out: always the last, still filling range,
 * and every range no vacuum has summarized yet. Autovacuum on an insert-only table runs only after
 * 20 % of it is new, so at a million events that unsummarized tail reached 200,000 rows, read
 * every second. Now ranges are summarized as soon as they fill (autosummarize), and a range is
 * 16 pages instead of 128, so the open tail the sealer reads is about a thousand rows.
 */
export class AuditBrinAutosummarize1795600000000 implements MigrationInterface {
  name = 'AuditBrinAutosummarize1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_events_created_brin`);
    await q.query(`CREATE INDEX audit_events_created_brin ON audit_events USING brin (created_at) WITH (pages_per_range = 16, autosummarize = on)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_events_created_brin`);
    await q.query(`CREATE INDEX audit_events_created_brin ON audit_events USING brin (created_at)`);
  }
}
