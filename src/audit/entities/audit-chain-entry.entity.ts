import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One sealed audit event: its position in its workspace's hash chain (seq, the sealing order),
 * the previous link's hash and its own (decision 0710). Written by the sealer only, append-only
 * (triggers reject UPDATE, DELETE and TRUNCATE). No foreign key to audit_events on purpose: a
 * removed event must leave its link behind.
 */
@Entity('audit_chain')
@Index('audit_chain_workspace_seq_key', ['workspaceId', 'seq'], { unique: true })
export class AuditChainEntry {
  @PrimaryColumn('uuid', { name: 'event_id' }) eventId!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @Column('bigint') seq!: string;
  @Column('text', { name: 'prev_hash' }) prevHash!: string;
  @Column('text') hash!: string;
  @Column('timestamptz', { name: 'sealed_at' }) sealedAt!: Date;
}
