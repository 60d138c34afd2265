import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { AnomaliesModule } from '../anomalies/anomalies.module';
import { EmailVerificationModule } from '../email-verification/email-verification.module';
import { MailModule } from '../mail/mail.module';
import { AuthController } from './auth.controller';
import { EndUserDirectoryModule } from './end-user-directory.module';
import { EndUserStrategy } from './end-user.strategy';
import { EndUsersService } from './end-users.service';
import { EndUserRefreshToken } from './entities/end-user-refresh-token.entity';
import { EndUserSession } from './entities/end-user-session.entity';
import { EndUser } from './entities/end-user.entity';
import { TokenDenylistEntry } from './entities/token-denylist-entry.entity';
import { EndUserRecoveryCode } from './mfa/entities/end-user-recovery-code.entity';
import { EndUserTotp } from './mfa/entities/end-user-totp.entity';
import { EndUserPasskey } from './mfa/entities/end-user-passkey.entity';
import { WebAuthnChallenge } from './mfa/entities/webauthn-challenge.entity';
import { EndUserMfaChallenge } from './mfa/entities/mfa-challenge.entity';
import { FactorVerifier } from './mfa/factor-verifier';
import { MfaChallengesService } from './mfa/mfa-challenges.service';
import { MfaController } from './mfa/mfa.controller';
import { PasskeyCeremonies } from './mfa/passkeys/passkey-ceremonies';
import { PasskeysController } from './mfa/passkeys/passkeys.controller';
import { PasskeysRepository } from './mfa/passkeys/passkeys.repository';
import { PasskeysService } from './mfa/passkeys/passkeys.service';
import { PasswordlessSignIn } from './mfa/passkeys/passwordless-sign-in.service';
import { MfaRepository } from './mfa/mfa.repository';
import { MfaService } from './mfa/mfa.service';
import { SignInPolicy } from './mfa/entities/sign-in-policy.entity';
import { SignInGate } from './mfa/sign-in-gate.service';
import { SignInPolicyController } from './mfa/sign-in-policy.controller';
import { SignInPolicyRepository } from './mfa/sign-in-policy.repository';
import { SignInPolicyService } from './mfa/sign-in-policy.service';
import { PasswordService } from './password.service';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { SignInService } from './sign-in.service';
import { AccessTokenCodec } from './tokens/access-token.codec';
import { TokenDenylistRepository } from './tokens/token-denylist.repository';
import { TokenDenylistService } from './tokens/token-denylist.service';

/**
 * End users: accounts, sign-in (API and hosted page), sessions and tokens, password reset, second
 * factors. Builds on the directory (end_users) and on email verification, which it imports: the
 * arrows run end-users → email-verification → directory, never back.
 */
@Module({
  imports: [
    PassportModule,
    CommonModule,
    RateLimitModule,
    AnomaliesModule,
    MailModule,
    EndUserDirectoryModule,
    EmailVerificationModule,
    TypeOrmModule.forFeature([
      EndUser,
      EndUserSession,
      EndUserRefreshToken,
      TokenDenylistEntry,
      EndUserTotp,
      EndUserPasskey,
      WebAuthnChallenge,
      EndUserRecoveryCode,
      EndUserMfaChallenge,
      SignInPolicy,
    ]),
  ],
  controllers: [AuthController, SessionsController, MfaController, PasskeysController, SignInPolicyController],
  providers: [
    SignInGate,
    SignInPolicyRepository,
    SignInPolicyService,
    MfaRepository,
    PasskeysRepository,
    PasskeyCeremonies,
    PasskeysService,
    PasswordlessSignIn,
    FactorVerifier,
    MfaService,
    MfaChallengesService,
    SessionsRepository,
    EndUsersService,
    SignInService,
    SessionsService,
    PasswordService,
    TokenDenylistRepository,
    TokenDenylistService,
    EndUserStrategy,
    {
      provide: AccessTokenCodec,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new AccessTokenCodec(config.AUTH_JWT_SECRET ?? '', config.ACCESS_TOKEN_TTL_SECONDS),
    },
  ],
  // The hosted login (src/hosted-login) builds its pages on these.
  exports: [
    SessionsService,
    SignInService,
    PasswordService,
    SignInGate,
    MfaService,
    MfaChallengesService,
    PasskeysService,
    PasswordlessSignIn,
    SessionsRepository,
    MfaRepository,
  ],
})
export class EndUsersModule {}
