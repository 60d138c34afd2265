import { Check, Column, Entity, Index } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/**
 * One directory event (decision 0510): written with its SCIM change (the outbox), numbered
 * afterwards by the sealer in commit order (seq, null until then; decision 0511). Read by seq:
 * the feed, webhook fan-out and the Shared Signals transmitter.
 */
@Entity('directory_events')
@Index('directory_events_workspace_seq_key', ['workspaceId', 'seq'], { unique: true })
@Index('directory_events_unsealed_idx', ['written'], { where: 'seq IS NULL' })
// BRIN on occurred_at, for the retention sweep: a method TypeORM cannot declare; the migration owns it.
@Index('directory_events_occurred_brin', { synchronize: false })
@Check(
  'directory_events_type_check',
  `type IN ('directory.user.created', 'directory.user.updated',
          'directory.user.deactivated', 'directory.user.reactivated', 'directory.group.created', 'directory.group.updated',
          'directory.group.deleted', 'directory.group.user_added', 'directory.group.user_removed')`,
)
export class DirectoryEvent extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'directory_events', 'workspace_id') workspace?: Workspace;
  /** Insertion order: the events of one transaction keep their emission order. bigint: text in JS. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' }) written!: string;
  @Column('bigint', { nullable: true }) seq!: string | null;
  @Column('text') type!: string;
  /** The user or group the event is about (webhooks deliver per resource in order). */
  @Column('uuid', { name: 'resource_id' }) resourceId!: string;
  @Column('jsonb') data!: Record<string, unknown>;
  @Column('text', { array: true, nullable: true }) changed!: string[] | null;
  @Column('timestamptz', { name: 'occurred_at', default: () => 'now()' }) occurredAt!: Date;
}
