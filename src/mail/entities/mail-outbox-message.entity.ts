import { Check, Column, Entity, Index } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

export type MailStatus = 'pending' | 'sent' | 'failed';

/**
 * A rendered message, written in the transaction of the change that caused it (decision 0303);
 * the bodies are cleared once it is delivered.
 */
@Entity('mail_outbox')
// (workspace_id, created_at DESC): a descending key TypeORM cannot declare; the migration owns it.
@Index('mail_outbox_workspace_idx', { synchronize: false })
@Check('mail_outbox_status_check', `status IN ('pending', 'sent', 'failed')`)
export class MailOutboxMessage extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'mail_outbox', 'workspace_id') workspace?: Workspace;
  @Column('text') template: string;
  @Column('text', { name: 'to_address' }) toAddress: string;
  @Column('text', { name: 'from_name' }) fromName: string;
  @Column('text') subject: string;
  @Column('text', { nullable: true }) html: string | null;
  @Column('text', { nullable: true }) text: string | null;
  @Column('text', { default: 'pending' }) status: MailStatus;
  @Column('int', { default: 0 }) attempts: number;
  @Column('text', { name: 'last_error', nullable: true }) lastError: string | null;
  @Column('text', { name: 'message_id', nullable: true }) messageId: string | null;
  @Column('text', { name: 'file_name', nullable: true }) fileName: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { name: 'sent_at', nullable: true }) sentAt: Date | null;
}
