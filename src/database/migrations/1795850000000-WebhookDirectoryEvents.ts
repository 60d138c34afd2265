import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Directory events on webhooks (decisions 0540, 0541). An endpoint subscribed to directory types
 * keeps a second position, in its workspace's directory event feed (`directory_position`, a feed
 * seq), beside its position in the audit chain. A delivery of a directory event names the user or
 * group it is about and its feed seq: the next delivery for the same resource is queued only when
 * the one before it was acknowledged or given up, which the partial index finds.
 */
export class WebhookDirectoryEvents1795850000000 implements MigrationInterface {
  name = 'WebhookDirectoryEvents1795850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_subscriptions ADD COLUMN directory_position bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN resource_id uuid, ADD COLUMN seq bigint`);
    await q.query(`
      CREATE INDEX webhook_deliveries_resource_pending_idx ON webhook_deliveries (subscription_id, resource_id, seq)
        WHERE status = 'pending' AND resource_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS webhook_deliveries_resource_pending_idx`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS resource_id, DROP COLUMN IF EXISTS seq`);
    await q.query(`ALTER TABLE webhook_subscriptions DROP COLUMN IF EXISTS directory_position`);
  }
}
