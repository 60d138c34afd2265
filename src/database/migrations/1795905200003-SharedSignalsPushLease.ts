import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Push drains a stream from one job (decision 0972): the job that drains holds the stream's push
 * lease (its job id, until a time); a SET made while it is held marks `push_again` instead of
 * queuing a job, and the holder reads again before letting go.
 */
export class SharedSignalsPushLease1795905200003 implements MigrationInterface {
  name = 'SharedSignalsPushLease1795905200003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ssf_streams ADD COLUMN push_leased_by text`);
    await q.query(`ALTER TABLE ssf_streams ADD COLUMN push_lease_until timestamptz`);
    await q.query(`ALTER TABLE ssf_streams ADD COLUMN push_again boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ssf_streams DROP COLUMN push_again`);
    await q.query(`ALTER TABLE ssf_streams DROP COLUMN push_lease_until`);
    await q.query(`ALTER TABLE ssf_streams DROP COLUMN push_leased_by`);
  }
}
