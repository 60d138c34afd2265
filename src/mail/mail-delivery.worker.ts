import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { JobContext, JobsService } from '../jobs/jobs.service';
import { MAIL_MAX_ATTEMPTS, MAIL_QUEUE } from './mail.service';

interface OutboxRow {
  id: string;
  template: string;
  to_address: string;
  from_name: string;
  subject: string;
  html: string | null;
  text: string | null;
  status: string;
}

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly mailer: MailerService,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.registerHandler(MAIL_QUEUE, (payload, ctx) => this.deliver(String(payload.outboxId), ctx));
  }

  async deliver(outboxId: string, ctx: JobContext): Promise<void> {
    const rows = (await this.dataSource.query(
      `SELECT id, template, to_address, from_name, subject, html, text, status FROM mail_outbox WHERE id = $1`,
      [outboxId],
    )) as OutboxRow[];
    const row = rows[0];
    if (!row || row.status === 'sent') return;
    try {
      const delivered = await this.send(row);
      await this.dataSource.query(
        // Bodies hold one-time codes: drop them (and any code in the subject) once delivered.
        `UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL,
                message_id = $2, file_name = $3, html = NULL, text = NULL,
                subject = regexp_replace(subject, '[0-9]{6}', '******', 'g')
          WHERE id = $1`,
        [row.id, delivered.messageId, delivered.fileName],
      );
    } catch (err) {
      const message = (err as Error).message?.slice(0, 500) ?? String(err);
      await this.dataSource.query(`UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, status = $3 WHERE id = $1`, [
        row.id,
        message,
        ctx.attempt >= MAIL_MAX_ATTEMPTS ? 'failed' : 'pending',
      ]);
      throw err;
    }
  }

  private async send(row: OutboxRow): Promise<{ messageId: string; fileName: string | null }> {
    const domain = mailFromAddress(this.config.MAIL_FROM).split('@')[1] ?? 'localhost';
    // A stable Message-ID lets a receiver drop the duplicate if a retry follows a send whose
    // acknowledgement was lost.
    const messageId = `<${row.id}@${domain}>`;
    const info = (await this.mailer.sendMail({
      to: row.to_address,
      from: { name: row.from_name, address: mailFromAddress(this.config.MAIL_FROM) },
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
