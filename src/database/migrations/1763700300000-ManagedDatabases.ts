import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Managed databases, their backups and restores.
 *
 * managed_databases.workspace_id has no cascading foreign key on purpose: a row
 * stands for real objects on an engine, so deleting a workspace must not erase
 * the row that says what to drop. A trigger on workspaces, in the deleting
 * transaction itself, marks the workspace's databases `deleting` and enqueues
 * their deprovisioning jobs, so nothing leaks even if the process dies right
 * after the commit (decision 0511).
 */
export class ManagedDatabases1763700300000 implements MigrationInterface {
  name = 'ManagedDatabases1763700300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE managed_databases (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        display_name text NOT NULL,
        db_name text NOT NULL UNIQUE,
        engine text NOT NULL CHECK (engine IN ('postgres', 'redis', 'mongodb')),
        username text NOT NULL,
        password_encrypted text NOT NULL,
        host text NOT NULL,
        port integer NOT NULL,
        status text NOT NULL DEFAULT 'creating' CHECK (status IN ('creating', 'available', 'failed', 'deleting')),
        error text,
        max_storage_mb integer NOT NULL,
        max_connections integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX managed_databases_workspace_idx ON managed_databases (workspace_id, created_at, id)`);

    await q.query(`
      CREATE TABLE managed_database_backups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        database_id uuid NOT NULL REFERENCES managed_databases(id) ON DELETE CASCADE,
        name text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        file_path text,
        size_bytes bigint,
        checksum_sha256 text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX managed_database_backups_db_idx ON managed_database_backups (database_id, created_at, id)`);

    await q.query(`
      CREATE TABLE managed_database_restores (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        database_id uuid NOT NULL REFERENCES managed_databases(id) ON DELETE CASCADE,
        backup_id uuid NOT NULL REFERENCES managed_database_backups(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX managed_database_restores_backup_idx ON managed_database_restores (backup_id, created_at)`);

    await q.query(`
      CREATE FUNCTION managed_databases_on_workspace_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO jobs (queue, payload, max_attempts)
          SELECT 'managed-db.deprovision', jsonb_build_object('databaseId', id, 'workspaceId', workspace_id), 10
            FROM managed_databases WHERE workspace_id = OLD.id AND status <> 'deleting';
        UPDATE managed_databases SET status = 'deleting', updated_at = now()
         WHERE workspace_id = OLD.id AND status <> 'deleting';
        RETURN OLD;
      END $$`);
    await q.query(`
      CREATE TRIGGER managed_databases_on_workspace_delete BEFORE DELETE ON workspaces
        FOR EACH ROW EXECUTE FUNCTION managed_databases_on_workspace_delete()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS managed_databases_on_workspace_delete ON workspaces`);
    await q.query(`DROP FUNCTION IF EXISTS managed_databases_on_workspace_delete()`);
    for (const table of ['managed_database_restores', 'managed_database_backups', 'managed_databases']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
