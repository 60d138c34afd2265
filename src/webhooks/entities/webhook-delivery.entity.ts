import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookSubscription } from './webhook-subscription.entity';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event for one endpoint; its id is the webhook-id header, the same on every attempt. */
@Entity('webhook_deliveries')
// At most one delivery per (endpoint, event): a fan-out that runs again adds nothing.
@Index('webhook_deliveries_subscription_event_key', ['subscriptionId', 'eventId'], { unique: true })
@Index('webhook_deliveries_subscription_idx', ['subscriptionId', 'createdAt'])
@Check('webhook_deliveries_status_check', `status IN ('pending', 'succeeded', 'failed')`)
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'subscription_id' }) subscriptionId!: string;
  @ManyToOne(() => WebhookSubscription, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'subscription_id', foreignKeyConstraintName: 'webhook_deliveries_subscription_id_fkey' })
  subscription?: WebhookSubscription;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  /** The audit event; null for a test message. */
  @Column('uuid', { name: 'event_id', nullable: true }) eventId!: string | null;
  @Column('text', { name: 'event_type' }) eventType!: string;
  /** The body's object: { type, timestamp, data }. */
  @Column('jsonb') payload!: Record<string, unknown>;
  @Column('text', { default: 'pending' }) status!: WebhookDeliveryStatus;
  @Column('int', { default: 0 }) attempts!: number;
  @Column('timestamptz', { name: 'next_attempt_at', nullable: true }) nextAttemptAt!: Date | null;
  @Column('int', { name: 'last_response_code', nullable: true }) lastResponseCode!: number | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt!: Date | null;
}
