import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '../common/request-context';
import type { EmittedEvents, Tx } from '../database/unit-of-work';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { MailService } from '../mail/mail.service';
import type { TemplateName } from '../mail/templates/template-catalog';
import { CodesRepository } from './codes.repository';
import type { CodePurpose } from './one-time-code';
import { byEndUser } from '../events/domain-events';

export interface CodeMail {
  purpose: CodePurpose;
  template: TemplateName;
  event: 'email_verify_send' | 'password_reset_request' | 'step_up_required';
  request?: RequestMeta;
  metadata?: Record<string, unknown>;
  now: Date;
}

/**
 * Issues a one-time code and queues the mail that carries it, and says so (its audit row), all in
 * the caller's unit of work (email verification, password reset and the emailed second step share
 * this). The delivery job wakes the mail worker once that unit of work commits (JobsService.enqueue).
 */
@Injectable()
export class CodeMailer {
  constructor(
    private readonly users: EndUsersRepository,
    private readonly codes: CodesRepository,
    private readonly mail: MailService,
  ) {}

  async send(tx: Tx, events: EmittedEvents, user: EndUserRecord, mail: CodeMail): Promise<void> {
    const code = await this.codes.issue(tx, user.workspaceId, user.id, mail.purpose, mail.now);
    await this.mail.enqueue(tx, {
      workspaceId: user.workspaceId,
      template: mail.template,
      to: user.email,
      values: {
        code,
        first_name: user.firstName || 'there',
        last_name: user.lastName,
        email: user.email,
        oauth_client: { name: await this.users.clientName(tx, user.workspaceId, user.oauthClientId) },
      },
    });
    events.emit(mail.event, {
      ...byEndUser(user, mail.request),
      metadata: mail.metadata,
    });
  }
}
