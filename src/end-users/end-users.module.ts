import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { EmailVerificationModule } from '../email-verification/email-verification.module';
import { EndUserDirectoryModule } from '../end-user-directory/end-user-directory.module';
import { SecondFactorModule } from '../second-factor/second-factor.module';
import { SessionsModule } from '../sessions/sessions.module';
import { AuthController } from './auth.controller';
import { EndUsersService } from './end-users.service';
import { PasswordService } from './password.service';
import { SignInService } from './sign-in.service';

/**
 * End users' accounts through the API: registration, password sign-in, password reset. Builds on
 * the directory (end_users), sessions and tokens, the second factor and email verification, which
 * it imports; the hosted login (src/hosted-login) builds its pages on the services it exports.
 */
@Module({
  imports: [CommonModule, RateLimitModule, EndUserDirectoryModule, SessionsModule, SecondFactorModule, EmailVerificationModule],
  controllers: [AuthController],
  providers: [EndUsersService, SignInService, PasswordService],
  exports: [EndUsersService, SignInService, PasswordService],
})
export class EndUsersModule {}
