import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The created_at trigger looked up `max(created_at) … AND created_at >= NEW.created_at`. Under a
 * cached generic plan PostgreSQL may answer that from the global created_at index, walking other
 * workspaces' rows on every insert (seconds for a back-dated batch). Reading the workspace's latest
 * row is one probe of the (workspace_id, created_at DESC) index whatever the plan.
 * The global created_at index served no query (every read filters by workspace) and only
 * tempted the planner and cost a write per event: it goes.
 */
export class AuditLatestLookup1763700600000 implements MigrationInterface {
  name = 'AuditLatestLookup1763700600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS audit_events_created_idx`);
    await q.query(`
      CREATE OR REPLACE FUNCTION audit_events_assign_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE latest timestamptz;
      BEGIN
        NEW.created_at := COALESCE(NEW.created_at, clock_timestamp());
        IF NEW.workspace_id IS NOT NULL THEN
          SELECT created_at INTO latest FROM audit_events
           WHERE workspace_id = NEW.workspace_id
           ORDER BY workspace_id, created_at DESC
           LIMIT 1;
          IF latest IS NOT NULL AND latest >= NEW.created_at THEN
            NEW.created_at := latest + interval '1 microsecond';
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS audit_events_created_idx ON audit_events (created_at DESC)`);
    await q.query(`
      CREATE OR REPLACE FUNCTION audit_events_assign_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE latest timestamptz;
      BEGIN
        NEW.created_at := COALESCE(NEW.created_at, clock_timestamp());
        IF NEW.workspace_id IS NOT NULL THEN
          SELECT max(created_at) INTO latest FROM audit_events
           WHERE workspace_id = NEW.workspace_id AND created_at >= NEW.created_at;
          IF latest IS NOT NULL THEN
            NEW.created_at := latest + interval '1 microsecond';
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
  }
}
