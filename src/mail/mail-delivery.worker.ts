import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import { APP_CONFIG, AppConfig } from '../config/config';
import { JobContext, JobsService } from '../jobs/jobs.service';
import { MailOutboxRepository, OutboxDelivery } from './mail-outbox.repository';
import { MAIL_MAX_ATTEMPTS, MAIL_QUEUE } from './mail.service';

/** "Name <addr>" or "addr" -> the bare address; the display name comes from the template. */
export function mailFromAddress(mailFrom: string): string {
  return (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
}

/**
 * Delivers outbox rows: over SMTP when SMTP_URL is set, else as .eml files in MAIL_DIR (one log line
 * names each file; the content, which may hold a code, is never logged). A failure rethrows so the
 * job queue retries with backoff.
 */
@Injectable()
export class MailDeliveryWorker implements OnModuleInit {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly mailer: MailerService,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.registerHandler(MAIL_QUEUE, (payload, ctx) => this.deliver(String(payload.outboxId), ctx));
  }

  async deliver(outboxId: string, ctx: JobContext): Promise<void> {
    const row = await this.outbox.forDelivery(outboxId);
    if (!row || row.status === 'sent') return;
    try {
      const delivered = await this.send(row);
      // Bodies hold one-time codes: the repository drops them (and masks any code in the subject).
      await this.outbox.markSent(row.id, delivered);
    } catch (err) {
      const message = (err as Error).message?.slice(0, 500) ?? String(err);
      await this.outbox.markAttemptFailed(row.id, message, ctx.attempt >= MAIL_MAX_ATTEMPTS ? 'failed' : 'pending');
      throw err;
    }
  }

  private async send(row: OutboxDelivery): Promise<{ messageId: string; fileName: string | null }> {
    const domain = mailFromAddress(this.config.MAIL_FROM).split('@')[1] ?? 'localhost';
    // A stable Message-ID lets a receiver drop the duplicate if a retry follows a send whose
    // acknowledgement was lost.
    const messageId = `<${row.id}@${domain}>`;
    const info = (await this.mailer.sendMail({
      to: row.toAddress,
      from: { name: row.fromName, address: mailFromAddress(this.config.MAIL_FROM) },
      subject: row.subject,
      text: row.text ?? undefined,
      html: row.html ?? undefined,
      messageId,
      headers: { 'X-Mail-Template': row.template },
    })) as { message?: Buffer | string };
    if (this.config.SMTP_URL) return { messageId, fileName: null };
    const fileName = `${new Date().toISOString().replace(/[:.]/g, '-')}-${row.template}-${row.id}.eml`;
    await mkdir(this.config.MAIL_DIR, { recursive: true });
    // Written under a temporary name and renamed, so anything watching the folder only ever sees whole messages.
    const finalPath = join(this.config.MAIL_DIR, fileName);
    await writeFile(`${finalPath}.part`, info.message ?? '', { mode: 0o600 });
    await rename(`${finalPath}.part`, finalPath);
    this.logger.log(`mail written to ${finalPath} (template ${row.template}); set SMTP_URL to send it`);
    return { messageId, fileName };
  }
}
