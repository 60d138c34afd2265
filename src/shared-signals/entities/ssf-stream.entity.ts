import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { SsfReceiver } from './ssf-receiver.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

export const PUSH = 'urn:ietf:rfc:8935';
export const POLL = 'urn:ietf:rfc:8936';
export type DeliveryMethod = typeof PUSH | typeof POLL;
export type StreamStatus = 'enabled' | 'paused' | 'disabled';

/**
 * A receiver's event stream (SSF 1.0 §8; one per receiver, decision 0522). `position` is the
 * last seq of the workspace's directory events already turned into SETs for it (decision 0521).
 * The push endpoint's Authorization header is sealed under SECRETS_ENCRYPTION_KEY.
 */
@Entity('ssf_streams')
@Unique('ssf_streams_receiver_key', ['receiverId'])
@Index('ssf_streams_workspace_idx', ['workspaceId'])
@Check('ssf_streams_status_check', `status IN ('enabled', 'paused', 'disabled')`)
@Check('ssf_streams_delivery_method_check', `delivery_method IN ('urn:ietf:rfc:8935', 'urn:ietf:rfc:8936')`)
export class SsfStream extends WorkspaceRow {
  @ForeignKey('workspaces', 'ssf_streams', 'workspace_id') workspace?: object;
  @Column('uuid', { name: 'receiver_id' }) receiverId!: string;
  @ForeignKey(() => SsfReceiver, 'ssf_streams', 'receiver_id') receiver?: SsfReceiver;
  @Column('text', { name: 'delivery_method' }) deliveryMethod!: DeliveryMethod;
  /** Push: the receiver's endpoint. Poll: null (the transmitter's poll URL is derived from the id). */
  @Column('text', { name: 'endpoint_url', nullable: true }) endpointUrl!: string | null;
  @Column('text', { name: 'authorization_encrypted', nullable: true }) authorizationEncrypted!: string | null;
  @Column('text', { name: 'events_requested', array: true, default: () => "'{}'" }) eventsRequested!: string[];
  @Column('text', { nullable: true }) description!: string | null;
  @Column('text', { default: 'enabled' }) status!: StreamStatus;
  @Column('text', { name: 'status_reason', nullable: true }) statusReason!: string | null;
  @Column('bigint', { default: 0 }) position!: string;
  /** The last seq of the workspace's audit chain already read for signals (decision 0525). */
  @Column('bigint', { name: 'audit_position', default: 0 }) auditPosition!: string;
  /** Push (decision 0972): the job draining the stream's SETs, until when; a SET made meanwhile sets `pushAgain`. */
  @Column('text', { name: 'push_leased_by', nullable: true }) pushLeasedBy!: string | null;
  @Column('timestamptz', { name: 'push_lease_until', nullable: true }) pushLeaseUntil!: Date | null;
  @Column('boolean', { name: 'push_again', default: false }) pushAgain!: boolean;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}
