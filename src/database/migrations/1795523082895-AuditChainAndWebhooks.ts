import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tamper evidence and webhooks (decisions 0710–0712).
 *
 * audit_chain: one row per sealed audit event, written by the sealer job after the event's
 * transaction committed (never in the write transaction): its position in the workspace's chain
 * (seq, the sealing order), the previous link's hash and its own. audit_checkpoints: signed
 * chain heads. Both are append-only like audit_events. No foreign key to audit_events: a row
 * removed from the log by someone who disabled its trigger must leave its link behind, which is
 * how verification names the missing event.
 *
 * webhook_subscriptions: a workspace's endpoints, each with its position in the workspace's
 * chain (the last seq fanned out). webhook_deliveries: one per (endpoint, event), sent by jobs.
 */
export class AuditChainAndWebhooks1795523082895 implements MigrationInterface {
  name = 'AuditChainAndWebhooks1795523082895';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_chain (
        event_id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        seq bigint NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL,
        sealed_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX audit_chain_workspace_seq_key ON audit_chain (workspace_id, seq)`);
    // The sealer reads the log from the oldest open transaction on: a BRIN range costs the
    // audit insert next to nothing (decision 0710).
    await q.query(`CREATE INDEX audit_events_created_brin ON audit_events USING brin (created_at)`);
    await q.query(`
      CREATE TABLE audit_checkpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        seq bigint NOT NULL,
        event_id uuid NOT NULL,
        hash text NOT NULL,
        key_id text NOT NULL,
        signature text NOT NULL,
        signed_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX audit_checkpoints_workspace_seq_idx ON audit_checkpoints (workspace_id, seq)`);
    await q.query(`
      CREATE FUNCTION audit_seal_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    for (const table of ['audit_chain', 'audit_checkpoints']) {
      await q.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION audit_seal_reject_change()`);
      await q.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION audit_seal_reject_change()`);
    }

    await q.query(`
      CREATE TABLE webhook_subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        url text NOT NULL,
        event_types text[] NOT NULL,
        description text NOT NULL DEFAULT '',
        secret_encrypted text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        position bigint NOT NULL DEFAULT 0,
        failing_since timestamptz,
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_subscriptions_workspace_idx ON webhook_subscriptions (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        event_id uuid,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_response_code int,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX webhook_deliveries_subscription_event_key ON webhook_deliveries (subscription_id, event_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS webhook_subscriptions`);
    await q.query(`DROP TABLE IF EXISTS audit_checkpoints`);
    await q.query(`DROP TABLE IF EXISTS audit_chain`);
    await q.query(`DROP INDEX IF EXISTS audit_events_created_brin`);
    await q.query(`DROP FUNCTION IF EXISTS audit_seal_reject_change()`);
  }
}
