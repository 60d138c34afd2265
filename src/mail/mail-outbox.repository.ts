import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Tx } from '../database/unit-of-work';
import { MailOutboxMessage, MailStatus } from './entities/mail-outbox-message.entity';

export interface NewOutboxMessage {
  template: string;
  toAddress: string;
  fromName: string;
  subject: string;
  html: string | null;
  text: string | null;
}

/** A message written to a file in MAIL_DIR (mail without SMTP), as the development mailbox lists it. */
export type WrittenMessage = Pick<MailOutboxMessage, 'id' | 'template' | 'toAddress' | 'fileName' | 'sentAt'>;

/** What delivery reads of a message. */
export type OutboxDelivery = Pick<MailOutboxMessage, 'id' | 'template' | 'toAddress' | 'fromName' | 'subject' | 'html' | 'text' | 'status'>;

/**
 * mail_outbox. Messages are written in the transaction of the change that caused them and
 * delivered by the jobs worker, which knows a message by its id alone (the job payload carries
 * only outboxId, jobs already queued included): the delivery methods take the id, not a workspace.
 */
@Injectable()
export class MailOutboxRepository {
  constructor(@InjectRepository(MailOutboxMessage) private readonly messages: Repository<MailOutboxMessage>) {}

  /** Answers the new message's id. */
  async insert(tx: Tx, workspaceId: string, message: NewOutboxMessage): Promise<string> {
    const entity = tx.getRepository(MailOutboxMessage).create({ workspaceId, ...message });
    await tx.getRepository(MailOutboxMessage).insert(entity);
    return entity.id;
  }

  async forDelivery(id: string): Promise<OutboxDelivery | null> {
    return this.messages.findOne({
      select: { id: true, template: true, toAddress: true, fromName: true, subject: true, html: true, text: true, status: true },
      where: { id },
    });
  }

  /** Delivered: the bodies hold one-time codes, so they are dropped (and any code in the subject masked). */
  async markSent(id: string, delivered: { messageId: string; fileName: string | null }): Promise<void> {
    await this.messages
      .createQueryBuilder()
      .update()
      .set({
        status: 'sent',
        sentAt: () => 'now()',
        attempts: () => 'attempts + 1',
        lastError: null,
        messageId: delivered.messageId,
        fileName: delivered.fileName,
        html: null,
        text: null,
        subject: () => `regexp_replace(subject, '[0-9]{6}', '******', 'g')`,
      })
      .where('id = :id', { id })
      .execute();
  }

  /** The workspace's last `limit` messages written to files, newest first. */
  async lastWrittenToFiles(workspaceId: string, limit: number): Promise<WrittenMessage[]> {
    return this.messages
      .createQueryBuilder('m')
      .select(['m.id', 'm.template', 'm.toAddress', 'm.fileName', 'm.sentAt'])
      .where('m.workspace_id = :workspaceId', { workspaceId })
      .andWhere("m.status = 'sent'")
      .andWhere('m.file_name IS NOT NULL')
      .orderBy('m.sent_at', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .limit(limit)
      .getMany();
  }

  /** A failed attempt: 'pending' while the job will retry, 'failed' after its last attempt. */
  async markAttemptFailed(id: string, error: string, status: Extract<MailStatus, 'pending' | 'failed'>): Promise<void> {
    await this.messages
      .createQueryBuilder()
      .update()
      .set({ attempts: () => 'attempts + 1', lastError: error, status })
      .where('id = :id', { id })
      .execute();
  }
}
