import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stream's position in its workspace's audit chain (decision 0525): sign-outs, session
 * revocations and credential changes are audited, not directory events, and are transmitted from
 * the sealed chain. Existing streams start at their chain's head (what happens from now on).
 */
export class SharedSignalsFromAudit1795905200001 implements MigrationInterface {
  name = 'SharedSignalsFromAudit1795905200001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ssf_streams ADD COLUMN audit_position bigint NOT NULL DEFAULT 0`);
    await q.query(
      `UPDATE ssf_streams s SET audit_position = COALESCE((SELECT max(c.seq) FROM audit_chain c WHERE c.workspace_id = s.workspace_id), 0)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ssf_streams DROP COLUMN audit_position`);
  }
}
