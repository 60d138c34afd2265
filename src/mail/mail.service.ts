import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { JobsService } from '../jobs/jobs.service';
import { EmailTemplatesService } from './email-templates.service';
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
    private readonly jobs: JobsService,
  ) {}

  async enqueue(manager: EntityManager, mail: OutgoingMail): Promise<string> {
    const template = await this.templates.effective(manager, mail.workspaceId, mail.template);
    const rendered = renderMessage(template, mail.values);
    const fromName = renderMessage({ subject: template.from_name, body: '' }, mail.values).subject;
    const rows = (await manager.query(
      `INSERT INTO mail_outbox (workspace_id, template, to_address, from_name, subject, html, text)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [mail.workspaceId, mail.template, mail.to, fromName, rendered.subject, rendered.html, rendered.text],
    )) as { id: string }[];
    const outboxId = rows[0].id;
    await this.jobs.enqueue(manager, MAIL_QUEUE, { outboxId }, { maxAttempts: MAIL_MAX_ATTEMPTS });
    return outboxId;
  }

  /** Call after the enqueuing transaction committed: deliver now rather than at the next poll. */
  kick(): void {
    this.jobs.kick();
  }
}
