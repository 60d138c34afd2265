import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookSubscription } from './webhook-subscription.entity';
import { ForeignKey } from '../../database/foreign-key';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event for one endpoint; its id is the webhook-id header, the same on every attempt. */
@Entity('webhook_deliveries')
// At most one delivery per (endpoint, event): a fan-out that runs again adds nothing.
@Index('webhook_deliveries_subscription_event_key', ['subscriptionId', 'eventId'], { unique: true })
@Index('webhook_deliveries_subscription_idx', ['subscriptionId', 'createdAt'])
// The pending deliveries of one resource, in feed order: who is next in line (decision 0541).
@Index('webhook_deliveries_resource_pending_idx', ['subscriptionId', 'resourceId', 'seq'], {
  where: `status = 'pending' AND resource_id IS NOT NULL`,
})
@Check('webhook_deliveries_status_check', `status IN ('pending', 'succeeded', 'failed')`)
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'subscription_id' }) subscriptionId!: string;
  @ForeignKey(() => WebhookSubscription, 'webhook_deliveries', 'subscription_id') subscription?: WebhookSubscription;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  /** The audit event or the directory event; null for a test message. */
  @Column('uuid', { name: 'event_id', nullable: true }) eventId!: string | null;
  @Column('text', { name: 'event_type' }) eventType!: string;
  /** A directory event's user or group (deliveries of one resource go out in order); null otherwise. */
  @Column('uuid', { name: 'resource_id', nullable: true }) resourceId!: string | null;
  /** A directory event's feed seq (the order within its resource); null otherwise. bigint: text in JS. */
  @Column('bigint', { nullable: true }) seq!: string | null;
  /** The body's object: { type, timestamp, data } for an audit event, the feed's event object for a directory event. */
  @Column('jsonb') payload!: Record<string, unknown>;
  @Column('text', { default: 'pending' }) status!: WebhookDeliveryStatus;
  @Column('int', { default: 0 }) attempts!: number;
  @Column('timestamptz', { name: 'next_attempt_at', nullable: true }) nextAttemptAt!: Date | null;
  @Column('int', { name: 'last_response_code', nullable: true }) lastResponseCode!: number | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt!: Date | null;
}
