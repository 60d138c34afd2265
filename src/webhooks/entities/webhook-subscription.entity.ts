import { Column, Entity, Index } from 'typeorm';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/**
 * A workspace's webhook endpoint (Standard Webhooks). `position` is the last seq of the
 * workspace's audit chain already fanned out to it (decision 0711): the audit log is the outbox.
 * `directoryPosition` is the same in the workspace's directory event feed (decision 0540).
 */
@Entity('webhook_subscriptions')
@Index('webhook_subscriptions_workspace_idx', ['workspaceId', 'createdAt'])
export class WebhookSubscription extends WorkspaceRow {
  // Named by table: the workspaces entity belongs to its own module.
  @ForeignKey('workspaces', 'webhook_subscriptions', 'workspace_id') workspace?: object;
  @Column('text') url!: string;
  @Column('text', { name: 'event_types', array: true }) eventTypes!: string[];
  @Column('text', { default: '' }) description!: string;
  /** The whsec_ secret, AES-256-GCM under SECRETS_ENCRYPTION_KEY. */
  @Column('text', { name: 'secret_encrypted' }) secretEncrypted!: string;
  @Column('boolean', { name: 'is_active', default: true }) isActive!: boolean;
  @Column('bigint', { default: 0 }) position!: string;
  @Column('bigint', { name: 'directory_position', default: 0 }) directoryPosition!: string;
  @Column('timestamptz', { name: 'failing_since', nullable: true }) failingSince!: Date | null;
  @Column('text', { name: 'disabled_reason', nullable: true }) disabledReason!: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}
