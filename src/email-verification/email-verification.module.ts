import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { EndUserDirectoryModule } from '../end-user-directory/end-user-directory.module';
import { MailModule } from '../mail/mail.module';
import { CodeMailer } from './code-mailer';
import { CodesRepository } from './codes.repository';
import { EmailVerificationController } from './email-verification.controller';
import { EmailVerificationService } from './email-verification.service';
import { EndUserCode } from './entities/end-user-code.entity';

/**
 * Email verification (`/e/v1/email/verify/…`) and the one-time codes it shares with password
 * reset and the emailed second step: the codes table, the mailer that issues a code and queues
 * its mail, and the verification flow. Below the end-users module, which imports it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([EndUserCode]), CommonModule, RateLimitModule, EndUserDirectoryModule, MailModule],
  controllers: [EmailVerificationController],
  providers: [CodesRepository, CodeMailer, EmailVerificationService],
  exports: [CodesRepository, CodeMailer, EmailVerificationService],
})
export class EmailVerificationModule {}
