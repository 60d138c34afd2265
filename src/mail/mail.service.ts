import { Injectable } from '@nestjs/common';
import type { Tx } from '../database/unit-of-work';
import { JobsService } from '../jobs/jobs.service';
import { EmailTemplatesService } from './email-templates.service';
import { MailOutboxRepository } from './mail-outbox.repository';
import { TemplateName } from './templates/template-catalog';
import { renderMessage, TemplateValues } from './templates/template-renderer';

export const MAIL_QUEUE = 'mail.deliver';
/** Enough attempts that the capped backoff (5 min) rides out an SMTP outage of several hours. */
export const MAIL_MAX_ATTEMPTS = 100;

export interface OutgoingMail {
  workspaceId: string;
  template: TemplateName;
  to: string;
  values: TemplateValues;
}

/**
 * Mail goes through a durable outbox: the rendered message and its delivery job are written in the
 * caller's transaction, so a message exists exactly when the change that caused it commits, and an
 * SMTP outage delays it without losing it (the job retries with backoff).
 */
@Injectable()
export class MailService {
  constructor(
    private readonly templates: EmailTemplatesService,
    private readonly outbox: MailOutboxRepository,
    private readonly jobs: JobsService,
  ) {}

  /** On the caller's transaction: the rendered message and its delivery job. */
  async enqueue(tx: Tx, mail: OutgoingMail): Promise<string> {
    const template = await this.templates.effective(tx, mail.workspaceId, mail.template);
    const rendered = renderMessage(template, mail.values);
    const fromName = renderMessage({ subject: template.from_name, body: '' }, mail.values).subject;
    const outboxId = await this.outbox.insert(tx, mail.workspaceId, {
      template: mail.template,
      toAddress: mail.to,
      fromName,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
    });
    await this.jobs.enqueue(tx, MAIL_QUEUE, { outboxId }, { maxAttempts: MAIL_MAX_ATTEMPTS });
    return outboxId;
  }
}
