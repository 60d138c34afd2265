import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Shared Signals transmitter (decisions 0520–0524): receivers registered per workspace (an
 * OAuth client of scope `ssf`, secret stored as SHA-256), one stream per receiver, the subjects
 * added to it, and the SETs made for it. A stream's `position` is the last directory event seq
 * already turned into SETs: the directory events are the outbox (decision 0521).
 */
export class SharedSignals1795905200000 implements MigrationInterface {
  name = 'SharedSignals1795905200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ssf_receivers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        name text NOT NULL,
        client_id text NOT NULL,
        secret_hash text NOT NULL,
        default_subjects text NOT NULL DEFAULT 'NONE',
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ssf_receivers_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE,
        CONSTRAINT ssf_receivers_created_by_fkey FOREIGN KEY (created_by) REFERENCES developers(id) ON DELETE SET NULL,
        CONSTRAINT ssf_receivers_client_id_key UNIQUE (client_id),
        CONSTRAINT ssf_receivers_default_subjects_check CHECK (default_subjects IN ('ALL', 'NONE'))
      )`);
    await q.query(`CREATE INDEX ssf_receivers_workspace_idx ON ssf_receivers (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE ssf_streams (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        receiver_id uuid NOT NULL,
        delivery_method text NOT NULL,
        endpoint_url text,
        authorization_encrypted text,
        events_requested text[] NOT NULL DEFAULT '{}',
        description text,
        status text NOT NULL DEFAULT 'enabled',
        status_reason text,
        position bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ssf_streams_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE,
        CONSTRAINT ssf_streams_receiver_id_fkey FOREIGN KEY (receiver_id) REFERENCES ssf_receivers(id) ON DELETE CASCADE,
        CONSTRAINT ssf_streams_receiver_key UNIQUE (receiver_id),
        CONSTRAINT ssf_streams_status_check CHECK (status IN ('enabled', 'paused', 'disabled')),
        CONSTRAINT ssf_streams_delivery_method_check CHECK (delivery_method IN ('urn:ietf:rfc:8935', 'urn:ietf:rfc:8936'))
      )`);
    await q.query(`CREATE INDEX ssf_streams_workspace_idx ON ssf_streams (workspace_id)`);
    await q.query(`
      CREATE TABLE ssf_stream_subjects (
        stream_id uuid NOT NULL,
        key text NOT NULL,
        workspace_id uuid NOT NULL,
        subject jsonb NOT NULL,
        excluded boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ssf_stream_subjects_pkey PRIMARY KEY (stream_id, key),
        CONSTRAINT ssf_stream_subjects_stream_id_fkey FOREIGN KEY (stream_id) REFERENCES ssf_streams(id) ON DELETE CASCADE,
        CONSTRAINT ssf_stream_subjects_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE ssf_sets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        stream_id uuid NOT NULL,
        jti text NOT NULL,
        event_type text NOT NULL,
        token text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        CONSTRAINT ssf_sets_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE,
        CONSTRAINT ssf_sets_stream_id_fkey FOREIGN KEY (stream_id) REFERENCES ssf_streams(id) ON DELETE CASCADE,
        CONSTRAINT ssf_sets_jti_key UNIQUE (jti),
        CONSTRAINT ssf_sets_status_check CHECK (status IN ('pending', 'delivered', 'acknowledged', 'failed'))
      )`);
    await q.query(`CREATE INDEX ssf_sets_stream_pending_idx ON ssf_sets (stream_id, created_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ssf_sets`);
    await q.query(`DROP TABLE ssf_stream_subjects`);
    await q.query(`DROP TABLE ssf_streams`);
    await q.query(`DROP TABLE ssf_receivers`);
  }
}
