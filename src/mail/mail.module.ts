import { Module } from '@nestjs/common';
import { MailerModule } from '@nestjs-modules/mailer';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { JobsModule } from '../jobs/jobs.module';
import { DevMailboxController } from './dev-mailbox.controller';
import { DevMailboxService } from './dev-mailbox.service';
import { EmailTemplatesController } from './email-templates.controller';
import { EmailTemplatesRepository } from './email-templates.repository';
import { EmailTemplatesService } from './email-templates.service';
import { EmailTemplate } from './entities/email-template.entity';
import { MailOutboxMessage } from './entities/mail-outbox-message.entity';
import { MailDeliveryWorker } from './mail-delivery.worker';
import { MailOutboxRepository } from './mail-outbox.repository';
import { MailService } from './mail.service';

/** SMTP when SMTP_URL is set; otherwise nodemailer builds the raw message and we keep it as a .eml file. */
function transportFor(config: AppConfig) {
  if (!config.SMTP_URL) return { streamTransport: true, buffer: true, newline: 'unix' as const };
  return { url: config.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
}

@Module({
  imports: [
    TypeOrmModule.forFeature([EmailTemplate, MailOutboxMessage]),
    JobsModule,
    // No `template` option: templates are ours (src/mail/templates), so no template engine is loaded.
    MailerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ transport: transportFor(config) }),
    }),
  ],
  controllers: [EmailTemplatesController, DevMailboxController],
  providers: [MailService, EmailTemplatesService, DevMailboxService, EmailTemplatesRepository, MailOutboxRepository, MailDeliveryWorker],
  exports: [MailService],
})
export class MailModule {}
