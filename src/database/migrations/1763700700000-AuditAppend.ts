import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * audit_append(...) inserts one audit row and never raises: a failed insert (a constraint, a
 * broken table) is rolled back to the function's own savepoint (PL/pgSQL's exception block)
 * and its message returned, so the caller's transaction, and the change it audits, still
 * commit. One round trip instead of SAVEPOINT / INSERT / RELEASE from the client. A unique
 * violation on the per-workspace created_at (two writers stamped the same microsecond) is
 * retried: each attempt is a new statement with a new snapshot, so the trigger sees the
 * other row once it has committed and bumps past it.
 */
export class AuditAppend1763700700000 implements MigrationInterface {
  name = 'AuditAppend1763700700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION audit_append(
        p_workspace_id uuid, p_event_type text, p_severity text, p_actor_type text, p_actor_id text,
        p_actor_email text, p_target_type text, p_target_id text, p_oauth_client_id text, p_ip_address text,
        p_user_agent text, p_request_id text, p_message text, p_metadata jsonb, p_created_at timestamptz
      ) RETURNS text LANGUAGE plpgsql AS $$
      BEGIN
        FOR attempt IN 1..20 LOOP
          BEGIN
            INSERT INTO audit_events (workspace_id, event_type, severity, actor_type, actor_id, actor_email,
              target_type, target_id, oauth_client_id, ip_address, user_agent, request_id, message, metadata, created_at)
            VALUES (p_workspace_id, p_event_type, p_severity, p_actor_type, p_actor_id, p_actor_email,
              p_target_type, p_target_id, p_oauth_client_id, p_ip_address, p_user_agent, p_request_id, p_message,
              p_metadata, p_created_at);
            RETURN NULL;
          EXCEPTION
            WHEN unique_violation THEN
              IF attempt = 20 THEN RETURN SQLSTATE || ' ' || SQLERRM; END IF;
            WHEN OTHERS THEN
              RETURN SQLSTATE || ' ' || SQLERRM;
          END;
        END LOOP;
        RETURN 'unreachable';
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION IF EXISTS audit_append(uuid, text, text, text, text, text, text, text, text, text, text, text, text, jsonb, timestamptz)`,
    );
  }
}
