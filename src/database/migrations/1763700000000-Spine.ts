import { MigrationInterface, QueryRunner } from 'typeorm';

/** Developers, workspaces, OAuth clients, the end-user table's core, the audit log and the job queue. */
export class Spine1763700000000 implements MigrationInterface {
  name = 'Spine1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE developers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text NOT NULL DEFAULT '',
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX developers_email_key ON developers (lower(email))`);
    await q.query(`
      CREATE TABLE developer_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        csrf_token text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE developer_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers(id) ON DELETE CASCADE,
        label text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX developer_tokens_developer_idx ON developer_tokens (developer_id, created_at)`);
    await q.query(`
      CREATE TABLE workspaces (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE workspace_members (
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        developer_id uuid NOT NULL REFERENCES developers(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'member')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, developer_id)
      )`);
    await q.query(`CREATE INDEX workspace_members_developer_idx ON workspace_members (developer_id)`);
    await q.query(`
      CREATE TABLE oauth_clients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        client_id text NOT NULL UNIQUE,
        client_secret_hash text NOT NULL,
        name text NOT NULL,
        redirect_uris jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_clients_workspace_idx ON oauth_clients (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE end_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        oauth_client_id uuid REFERENCES oauth_clients(id) ON DELETE CASCADE,
        email text NOT NULL,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        is_active boolean NOT NULL DEFAULT true,
        email_verified boolean NOT NULL DEFAULT false,
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Spec rule A.4: unique per workspace on (email, OAuth client); a NULL client (SCIM) counts as one value.
    await q.query(`
      CREATE UNIQUE INDEX end_users_identity_key ON end_users
        (workspace_id, COALESCE(oauth_client_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(email))`);
    await q.query(`CREATE INDEX end_users_workspace_created_idx ON end_users (workspace_id, created_at, id)`);

    await q.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid,
        event_type text NOT NULL,
        severity text NOT NULL CHECK (severity IN ('info', 'warn', 'error')),
        actor_type text NOT NULL,
        actor_id text,
        actor_email text,
        target_type text,
        target_id text,
        oauth_client_id text,
        ip_address text,
        user_agent text,
        request_id text,
        message text NOT NULL DEFAULT '',
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL
      )`);
    // One row per workspace per microsecond: the cursor (a created_at) is then lossless.
    await q.query(`CREATE UNIQUE INDEX audit_events_workspace_created_key ON audit_events (workspace_id, created_at DESC)`);
    await q.query(`CREATE INDEX audit_events_created_idx ON audit_events (created_at DESC)`);
    await q.query(`
      CREATE FUNCTION audit_events_assign_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await q.query(`
      CREATE TRIGGER audit_events_created_at BEFORE INSERT ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_assign_created_at()`);
    await q.query(`
      CREATE FUNCTION audit_events_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_reject_change()`);
    await q.query(`
      CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
        FOR EACH STATEMENT EXECUTE FUNCTION audit_events_reject_change()`);

    await q.query(`
      CREATE TABLE jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        queue text NOT NULL,
        payload jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL DEFAULT 10,
        run_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        locked_by text,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE status IN ('pending', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'jobs',
      'audit_events',
      'end_users',
      'oauth_clients',
      'workspace_members',
      'workspaces',
      'developer_tokens',
      'developer_sessions',
      'developers',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table} CASCADE`);
    }
    await q.query(`DROP FUNCTION IF EXISTS audit_events_assign_created_at, audit_events_reject_change`);
  }
}
