import { MigrationInterface, QueryRunner } from 'typeorm';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * Concurrent writes that do not wait on each other, and SCIM pages whose cost does
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
 * - scim_user_counts: the exact number of SCIM users of a workspace (totalResults of an unfiltered
 *   page) as the sum of one row per (workspace, backend), kept by statement triggers on end_users,
 *   so no writer waits on another's counter row and the count is read in a few rows, not 100,000.
 * - end_users_scim_page_idx: the SCIM users of a workspace in page order, so the skip of a page
 *   (and a filtered count) is an index-only scan; autovacuum runs sooner on the tables SCIM pages,
 *   so the visibility map those scans need stays fresh.
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
    await q.query(`
      CREATE TABLE scim_user_counts (
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        backend_pid integer NOT NULL,
        users bigint NOT NULL,
        PRIMARY KEY (workspace_id, backend_pid)
      )`);
    // Counts of SCIM users (no OAuth client) by workspace in a transition table, added to this backend's row.
    // A workspace being deleted is skipped: its rows go with it (and the foreign key would refuse them).
    for (const [event, table, sign] of [
      ['INSERT', 'new_rows', '+'],
      ['DELETE', 'old_rows', '-'],
    ] as const) {
      await q.query(`
        CREATE FUNCTION scim_user_counts_on_${event.toLowerCase()}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO scim_user_counts AS c (workspace_id, backend_pid, users)
          SELECT r.workspace_id, pg_backend_pid(), ${sign}count(*) FROM ${table} r
           WHERE COALESCE(r.oauth_client_id, ${NIL}) = ${NIL} AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = r.workspace_id)
           GROUP BY r.workspace_id
          ON CONFLICT (workspace_id, backend_pid) DO UPDATE SET users = c.users + excluded.users;
          RETURN NULL;
        END $$`);
      await q.query(`
        CREATE TRIGGER end_users_scim_count_${event.toLowerCase()} AFTER ${event} ON end_users
          REFERENCING ${event === 'INSERT' ? 'NEW' : 'OLD'} TABLE AS ${table}
          FOR EACH STATEMENT EXECUTE FUNCTION scim_user_counts_on_${event.toLowerCase()}()`);
    }
    // A user moving in or out of the SCIM scope (its oauth_client_id set or cleared) or between workspaces.
    await q.query(`
      CREATE FUNCTION scim_user_counts_on_move() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO scim_user_counts AS c (workspace_id, backend_pid, users)
        SELECT m.workspace_id, pg_backend_pid(), sum(m.delta) FROM (VALUES
            (OLD.workspace_id, CASE WHEN COALESCE(OLD.oauth_client_id, ${NIL}) = ${NIL} THEN -1 ELSE 0 END),
            (NEW.workspace_id, CASE WHEN COALESCE(NEW.oauth_client_id, ${NIL}) = ${NIL} THEN 1 ELSE 0 END)) AS m(workspace_id, delta)
         WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = m.workspace_id)
         GROUP BY m.workspace_id HAVING sum(m.delta) <> 0
        ON CONFLICT (workspace_id, backend_pid) DO UPDATE SET users = c.users + excluded.users;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER end_users_scim_count_move AFTER UPDATE OF workspace_id, oauth_client_id ON end_users
        FOR EACH ROW WHEN (OLD.workspace_id IS DISTINCT FROM NEW.workspace_id OR OLD.oauth_client_id IS DISTINCT FROM NEW.oauth_client_id)
        EXECUTE FUNCTION scim_user_counts_on_move()`);
    await q.query(`
      INSERT INTO scim_user_counts (workspace_id, backend_pid, users)
      SELECT workspace_id, 0, count(*) FROM end_users WHERE COALESCE(oauth_client_id, ${NIL}) = ${NIL} GROUP BY workspace_id`);
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
          -- Held until commit: a writer in flight holds each microsecond it stamped, so a taken one
          -- is skipped rather than waited for.
          IF pg_try_advisory_xact_lock(ws_key, (((extract(epoch FROM stamp) * 1000000)::bigint % 4294967296) - 2147483648)::integer) THEN
            -- A new statement: a writer that held this microsecond and committed is visible here.
            SELECT created_at INTO latest FROM audit_events
             WHERE workspace_id = NEW.workspace_id ORDER BY workspace_id, created_at DESC LIMIT 1;
            EXIT WHEN latest IS NULL OR latest < stamp;
            stamp := latest + interval '1 microsecond';
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
    for (const event of ['insert', 'delete', 'move']) {
      await q.query(`DROP TRIGGER IF EXISTS end_users_scim_count_${event} ON end_users`);
      await q.query(`DROP FUNCTION IF EXISTS scim_user_counts_on_${event}()`);
    }
    await q.query(`DROP TABLE IF EXISTS scim_user_counts`);
    await q.query(`DROP INDEX IF EXISTS end_users_scim_page_idx`);
    await q.query(`DROP TABLE IF EXISTS scim_group_changes`);
  }
}
