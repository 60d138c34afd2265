import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { SsfStream } from './ssf-stream.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

export type SetStatus = 'pending' | 'delivered' | 'acknowledged' | 'failed';

/**
 * One Security Event Token made for a stream (RFC 8417), signed once when it is made so that
 * every retry sends the same bytes and the same jti. Push: `delivered` on the receiver's 2xx.
 * Poll: `acknowledged` when the receiver acks it (RFC 8936 §2.4); until then every poll may
 * return it again (at least once).
 */
@Entity('ssf_sets')
@Unique('ssf_sets_jti_key', ['jti'])
@Index('ssf_sets_stream_pending_idx', ['streamId', 'made'], { where: "status = 'pending'" })
@Check('ssf_sets_status_check', `status IN ('pending', 'delivered', 'acknowledged', 'failed')`)
export class SsfSet extends WorkspaceRow {
  @ForeignKey('workspaces', 'ssf_sets', 'workspace_id') workspace?: object;
  @Column('uuid', { name: 'stream_id' }) streamId!: string;
  @ForeignKey(() => SsfStream, 'ssf_sets', 'stream_id') stream?: SsfStream;
  /** The order SETs were made in (one dispatcher transaction makes several with one created_at). bigint: text in JS. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' }) made!: string;
  @Column('text') jti!: string;
  @Column('text', { name: 'event_type' }) eventType!: string;
  /** The signed SET (compact JWS). */
  @Column('text') token!: string;
  @Column('text', { default: 'pending' }) status!: SetStatus;
  @Column('integer', { default: 0 }) attempts!: number;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt!: Date | null;
}
