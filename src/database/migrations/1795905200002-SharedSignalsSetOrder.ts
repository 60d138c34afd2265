import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SETs keep the order they were made in (`made`, an identity column): the SETs of one dispatcher
 * transaction share created_at, and a disable and an enable of the same person must not be polled
 * the other way round.
 */
export class SharedSignalsSetOrder1795905200002 implements MigrationInterface {
  name = 'SharedSignalsSetOrder1795905200002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ssf_sets ADD COLUMN made bigint GENERATED ALWAYS AS IDENTITY`);
    await q.query(`DROP INDEX ssf_sets_stream_pending_idx`);
    await q.query(`CREATE INDEX ssf_sets_stream_pending_idx ON ssf_sets (stream_id, made) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ssf_sets_stream_pending_idx`);
    await q.query(`CREATE INDEX ssf_sets_stream_pending_idx ON ssf_sets (stream_id, created_at) WHERE status = 'pending'`);
    await q.query(`ALTER TABLE ssf_sets DROP COLUMN made`);
  }
}
