import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Directory events (decisions 0510, 0511): the outbox of SCIM changes. A row is written in the
 * transaction of its change (seq null); the sealer numbers each workspace's rows in commit order
 * afterwards (seq), and the feed, the webhooks and the Shared Signals transmitter read by seq.
 * `written` is the insertion order, so the events of one transaction keep the order they were
 * emitted in. directory_event_append() lets the SCIM create's single statement carry its event.
 */
export class DirectoryEvents1795810000000 implements MigrationInterface {
  name = 'DirectoryEvents1795810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE directory_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        written bigint GENERATED ALWAYS AS IDENTITY,
        seq bigint,
        type text NOT NULL,
        resource_id uuid NOT NULL,
        data jsonb NOT NULL,
        changed text[],
        occurred_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT directory_events_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE,
        CONSTRAINT directory_events_type_check CHECK (type IN ('directory.user.created', 'directory.user.updated',
          'directory.user.deactivated', 'directory.user.reactivated', 'directory.group.created', 'directory.group.updated',
          'directory.group.deleted', 'directory.group.user_added', 'directory.group.user_removed'))
      )`);
    await q.query(`CREATE UNIQUE INDEX directory_events_workspace_seq_key ON directory_events (workspace_id, seq)`);
    await q.query(`CREATE INDEX directory_events_unsealed_idx ON directory_events (written) WHERE seq IS NULL`);
    await q.query(`CREATE INDEX directory_events_occurred_brin ON directory_events USING brin (occurred_at)`);
    await q.query(`
      CREATE FUNCTION directory_event_append(p_workspace uuid, p_type text, p_resource uuid, p_data jsonb, p_changed text[])
      RETURNS uuid LANGUAGE sql AS $$
        INSERT INTO directory_events (workspace_id, type, resource_id, data, changed)
        VALUES (p_workspace, p_type, p_resource, p_data, p_changed) RETURNING id
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS directory_event_append(uuid, text, uuid, jsonb, text[])`);
    await q.query(`DROP TABLE IF EXISTS directory_events`);
  }
}
