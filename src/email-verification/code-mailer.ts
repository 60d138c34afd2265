import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { RequestMeta } from '../common/request-context';
import { EndUserRow, EndUsersRepository } from '../end-users/end-users.repository';
import type { AuditEventType } from '../events/audit-catalog';
import { MailService } from '../mail/mail.service';
import type { TemplateName } from '../mail/templates/template-catalog';
import { CodesRepository } from './codes.repository';
import type { CodePurpose } from './one-time-code';

export interface CodeMail {
  purpose: CodePurpose;
  template: TemplateName;
  eventType: AuditEventType;
  request?: RequestMeta;
  now: Date;
}

/**
 * Issues a one-time code and queues the mail that carries it, with its audit row, all in the
 * caller's transaction (email verification and password reset share this). Call
 * MailService.kick() after the commit.
 */
@Injectable()
export class CodeMailer {
  constructor(
    private readonly users: EndUsersRepository,
    private readonly codes: CodesRepository,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {}

  async send(manager: EntityManager, user: EndUserRow, mail: CodeMail): Promise<void> {
    const code = await this.codes.issue(manager, user.workspace_id, user.id, mail.purpose, mail.now);
    await this.mail.enqueue(manager, {
      workspaceId: user.workspace_id,
      template: mail.template,
      to: user.email,
      values: {
        code,
        first_name: user.first_name || 'there',
        last_name: user.last_name,
        email: user.email,
        oauth_client: { name: await this.users.clientName(user.workspace_id, user.oauth_client_id, manager) },
      },
    });
    await this.audit.record(manager, {
      eventType: mail.eventType,
      workspaceId: user.workspace_id,
      actor: { type: 'end_user', id: user.id, email: user.email },
      target: { type: 'EndUser', id: user.id },
      oauthClientId: user.oauth_client_id,
      request: mail.request,
    });
  }
}
