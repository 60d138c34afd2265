import { Column, Entity, Index } from 'typeorm';
import { WorkspaceRow } from '../../database/workspace-row';

/** A signed head of a workspace's audit chain (decision 0710). Append-only, written by the sealer. */
@Entity('audit_checkpoints')
@Index('audit_checkpoints_workspace_seq_idx', ['workspaceId', 'seq'])
export class AuditCheckpoint extends WorkspaceRow {
  @Column('bigint') seq!: string;
  @Column('uuid', { name: 'event_id' }) eventId!: string;
  @Column('text') hash!: string;
  @Column('text', { name: 'key_id' }) keyId!: string;
  /** Base64 Ed25519 signature of checkpointMessage(...). */
  @Column('text') signature!: string;
  @Column('timestamptz', { name: 'signed_at' }) signedAt!: Date;
}
