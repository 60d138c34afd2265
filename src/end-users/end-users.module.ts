import { Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
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
import { BrowserSessionsService } from './hosted-login/browser-sessions.service';
import { HostedSecurityController } from './hosted-login/hosted-security.controller';
import { HostedSecurityService } from './hosted-login/hosted-security.service';
import { HostedSessionsController } from './hosted-login/hosted-sessions.controller';
import { HostedSessionsService } from './hosted-login/hosted-sessions.service';
import { HostedLoginController } from './hosted-login/hosted-login.controller';
import { HostedContexts } from './hosted-login/hosted-contexts';
import { hostedBasePath } from './hosted-login/hosted-input';
import { HostedLoginService } from './hosted-login/hosted-login.service';
import { HostedPasswordResetService } from './hosted-login/hosted-password-reset.service';
import { HostedVerificationService } from './hosted-login/hosted-verification.service';
import { LOGIN_APP_NAMES, LoginAppNamesSlot } from './hosted-login/login-app-names';
import { ApplicationGrantsSlot } from './hosted-login/application-grants';
import { AuthorizationContinuationSlot } from './hosted-login/authorization-continuation';
import { SignInContinuations } from './hosted-login/sign-in-continuation';
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
import { HostedAssetsController } from './hosted-login/hosted-assets.controller';
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

const DEFAULT_LOGIN_PATH = '/auth/login/';

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
  controllers: [
    AuthController,
    SessionsController,
    HostedLoginController,
    HostedSessionsController,
    HostedSecurityController,
    MfaController,
    PasskeysController,
    HostedAssetsController,
    SignInPolicyController,
  ],
  providers: [
    SignInGate,
    SignInPolicyRepository,
    SignInPolicyService,
    HostedSecurityService,
    MfaRepository,
    PasskeysRepository,
    PasskeyCeremonies,
    PasskeysService,
    PasswordlessSignIn,
    FactorVerifier,
    MfaService,
    MfaChallengesService,
    HostedSessionsService,
    SessionsRepository,
    EndUsersService,
    SignInService,
    SessionsService,
    PasswordService,
    BrowserSessionsService,
    HostedContexts,
    HostedLoginService,
    HostedVerificationService,
    HostedPasswordResetService,
    SignInContinuations,
    LoginAppNamesSlot,
    { provide: LOGIN_APP_NAMES, useExisting: LoginAppNamesSlot },
    ApplicationGrantsSlot,
    AuthorizationContinuationSlot,
    TokenDenylistRepository,
    TokenDenylistService,
    EndUserStrategy,
    {
      provide: AccessTokenCodec,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new AccessTokenCodec(config.AUTH_JWT_SECRET ?? '', config.ACCESS_TOKEN_TTL_SECONDS),
    },
  ],
  exports: [BrowserSessionsService, SessionsService, SignInService, SignInGate, LoginAppNamesSlot, ApplicationGrantsSlot, AuthorizationContinuationSlot],
})
export class EndUsersModule implements NestModule {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * When SAML_IDP_LOGIN_URL names a path other than /auth/login/, answer it with a 307 to the hosted
   * login (method, body and query kept). Controller paths are fixed at load time, before config exists.
   */
  configure(consumer: MiddlewareConsumer): void {
    const base = hostedBasePath(this.config.SAML_IDP_LOGIN_URL);
    if (base === DEFAULT_LOGIN_PATH) return;
    const redirect = (req: Request, res: Response, next: NextFunction) => {
      const url = req.originalUrl;
      const path = url.split('?')[0];
      if (path === base.slice(0, -1) || path.startsWith(base)) {
        res.redirect(307, DEFAULT_LOGIN_PATH + url.slice(path === base.slice(0, -1) ? base.length - 1 : base.length).replace(/^\//, ''));
        return;
      }
      next();
    };
    consumer.apply(redirect).forRoutes('*');
  }
}
