import { MigrationInterface, QueryRunner } from 'typeorm';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * Issue 14: concurrent writes that do not wait on each other, and SCIM pages whose cost does
 * not depend on startIndex.
 *
 * - scim_group_changes: when a group's membership last changed, one row per (group, database
 *   backend). A backend runs one transaction at a time, so the upsert of its own row never waits
 *   on another transaction, where updating scim_groups.updated_at held the group's row lock
 *   until commit and queued every concurrent PATCH of the group behind it (decision 0121).
 * - audit_events_assign_created_at: a server-stamped row (created_at not given) takes its
 *   transaction id before reading the clock, and claims its microsecond with a non-blocking
 *   advisory lock, so two writers in flight never hold the same created_at and neither waits on
 *   the unique index for the other's commit. Readers see a row only once no transaction that was
 *   in flight could still commit an earlier one (AuditRepository.stableBefore; decision 0120).
 *   A row given its created_at (seeding, tests) keeps the previous rule.
 * - end_users_scim_page_idx: the SCIM users of a workspace in page order, so the count and the
 *   skip of a page are index-only scans; autovacuum runs sooner on the tables SCIM pages, so
 *   the visibility map those scans need stays fresh.
 */
export class ScimWithoutWaits1795522988294 implements MigrationInterface {
  name = 'ScimWithoutWaits1795522988294';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scim_group_changes (
        group_id uuid NOT NULL REFERENCES scim_groups(id) ON DELETE CASCADE,
        backend_pid integer NOT NULL,
        changed_at timestamptz NOT NULL,
        PRIMARY KEY (group_id, backend_pid)
      )`);
    await q.query(`
      CREATE INDEX end_users_scim_page_idx ON end_users (workspace_id, created_at, id)
        WHERE COALESCE(oauth_client_id, ${NIL}) = ${NIL}`);
    for (const table of ['end_users', 'scim_groups', 'scim_group_members']) {
      await q.query(`ALTER TABLE ${table} SET (autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_vacuum_scale_factor = 0.05)`);
    }
    await q.query(`
      CREATE OR REPLACE FUNCTION audit_events_assign_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        latest timestamptz;
        stamp timestamptz;
        ws_key integer;
      BEGIN
        IF NEW.workspace_id IS NULL THEN
          NEW.created_at := COALESCE(NEW.created_at, clock_timestamp());
          RETURN NEW;
        END IF;
        IF NEW.created_at IS NOT NULL THEN
          -- Given (seeding, tests): one past the workspace's latest visible row when not after it.
          SELECT created_at INTO latest FROM audit_events
           WHERE workspace_id = NEW.workspace_id ORDER BY workspace_id, created_at DESC LIMIT 1;
          IF latest IS NOT NULL AND latest >= NEW.created_at THEN
            NEW.created_at := latest + interval '1 microsecond';
          END IF;
          RETURN NEW;
        END IF;
        -- The transaction id first: a reader that saw this transaction without one knows its rows
        -- are stamped after that moment (AuditRepository.stableBefore).
        PERFORM pg_current_xact_id();
        ws_key := hashtext(NEW.workspace_id::text);
        stamp := clock_timestamp();
        LOOP
          SELECT created_at INTO latest FROM audit_events
           WHERE workspace_id = NEW.workspace_id ORDER BY workspace_id, created_at DESC LIMIT 1;
          IF latest IS NOT NULL AND latest >= stamp THEN
            stamp := latest + interval '1 microsecond';
          END IF;
          -- Held until commit; a writer in flight holds it for each microsecond it stamped, so a
          -- taken one is skipped instead of waited for.
          IF pg_try_advisory_xact_lock(ws_key, (((extract(epoch FROM stamp) * 1000000)::bigint % 4294967296) - 2147483648)::integer) THEN
            -- A writer that held it and committed before we took it is visible to this new statement.
            SELECT created_at INTO latest FROM audit_events
             WHERE workspace_id = NEW.workspace_id ORDER BY workspace_id, created_at DESC LIMIT 1;
            EXIT WHEN latest IS NULL OR latest < stamp;
          ELSE
            stamp := stamp + interval '1 microsecond';
          END IF;
        END LOOP;
        NEW.created_at := stamp;
        RETURN NEW;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
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
    for (const table of ['end_users', 'scim_groups', 'scim_group_members']) {
      await q.query(`ALTER TABLE ${table} RESET (autovacuum_vacuum_insert_scale_factor, autovacuum_vacuum_scale_factor)`);
    }
    await q.query(`DROP INDEX IF EXISTS end_users_scim_page_idx`);
    await q.query(`DROP TABLE IF EXISTS scim_group_changes`);
  }
}
