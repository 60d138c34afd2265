import { Inject, Injectable } from '@nestjs/common';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { notFound } from '../common/common.errors';
import { APP_CONFIG, AppConfig } from '../config/config';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { codesIn, linksIn, readEml } from './eml-reader';
import { MailOutboxRepository, WrittenMessage } from './mail-outbox.repository';

/** How many of the last mails the mailbox shows. */
export const DEV_MAILBOX_SIZE = 20;
/** A mail the service writes is a few kilobytes; more than this is not read. */
const MAX_FILE_BYTES = 256 * 1024;
/** The names the delivery worker gives the files (mail-delivery.worker.ts): nothing that could leave MAIL_DIR. */
const FILE_NAME = /^[\w.-]+\.eml$/;

export interface DevMailboxEntry {
  id: string;
  template: string;
  to: string;
  subject: string | null;
  sent_at: string | null;
  /** The six-digit codes it carries, as a person copies them from the mail. */
  codes: string[];
  links: string[];
  text: string | null;
  /** The .eml file in MAIL_DIR; `missing` when it was deleted or moved since. */
  file_name: string;
  missing: boolean;
}

/**
 * The development mailbox (decision 0218): a workspace's last mails read back from the .eml files that
 * stand in for SMTP, with their codes, so a developer signs an end user up in the browser without opening
 * files. Exists only outside production and only when mail goes to files; otherwise 404.
 */
@Injectable()
export class DevMailboxService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutboxRepository,
  ) {}

  get enabled(): boolean {
    return this.config.NODE_ENV !== 'production' && !this.config.SMTP_URL;
  }

  async list({ workspaceId }: WorkspaceScope): Promise<DevMailboxEntry[]> {
    if (!this.enabled) throw notFound('Development mailbox (development only, when mail is written to files)');
    const messages = await this.outbox.lastWrittenToFiles(workspaceId, DEV_MAILBOX_SIZE);
    return Promise.all(messages.map((message) => this.entry(message)));
  }

  private async entry(message: WrittenMessage): Promise<DevMailboxEntry> {
    const fileName = message.fileName ?? '';
    const raw = FILE_NAME.test(fileName) ? await readSmallFile(join(this.config.MAIL_DIR, fileName)) : null;
    const mail = raw === null ? null : readEml(raw);
    return {
      id: message.id,
      template: message.template,
      to: mail?.to || message.toAddress,
      subject: mail?.subject ?? null,
      sent_at: message.sentAt?.toISOString() ?? null,
      codes: mail ? codesIn(mail.subject, mail.text) : [],
      links: linksIn(mail?.text ?? null),
      text: mail?.text ?? null,
      file_name: fileName,
      missing: raw === null,
    };
  }
}

/** The file's text, or null when it is gone, unreadable or larger than a mail of ours can be. */
async function readSmallFile(path: string): Promise<string | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) return null;
    return await handle.readFile({ encoding: 'utf8' });
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
