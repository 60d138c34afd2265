import { Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { CommonModule } from '../common/common.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { EmailVerificationModule } from '../email-verification/email-verification.module';
import { EndUserDirectoryModule } from '../end-user-directory/end-user-directory.module';
import { EndUsersModule } from '../end-users/end-users.module';
import { SecondFactorModule } from '../second-factor/second-factor.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ApplicationGrantsPort } from './application-grants';
import { AuthorizationContinuationPort } from './authorization-continuation';
import { BrowserSessionsService } from './browser-sessions.service';
import { CompanySignInPort } from './company-sign-in';
import { HostedAssetsController } from './hosted-assets.controller';
import { HostedContexts } from './hosted-contexts';
import { hostedBasePath } from './hosted-input';
import { HostedLoginController } from './hosted-login.controller';
import { HostedLoginService } from './hosted-login.service';
import { HostedPasswordResetService } from './hosted-password-reset.service';
import { HostedSecurityController } from './hosted-security.controller';
import { HostedSecurityService } from './hosted-security.service';
import { HostedSessionsController } from './hosted-sessions.controller';
import { HostedSessionsService } from './hosted-sessions.service';
import { HostedSignUpService } from './hosted-sign-up.service';
import { HostedVerificationService } from './hosted-verification.service';
import { HostedLoginPorts } from './hosted-login-ports';
import { LOGIN_APP_NAMES, LoginAppNamesPort } from './login-app-names';
import { PageForms } from './page-forms';
import { SignInContinuations } from './sign-in-continuation';

const DEFAULT_LOGIN_PATH = '/auth/login/';

/**
 * The hosted login: the pages a browser signs in on (/auth/login), manages its second factors
 * (/auth/security) and its sessions (/auth/sessions), and the browser session those pages set.
 * Builds on the end-user accounts (EndUsersModule), sessions, second factors and email
 * verification; SAML and the OpenID provider sit above it and use its browser session.
 */
@Module({
  imports: [
    DiscoveryModule,
    CommonModule,
    RateLimitModule,
    EndUserDirectoryModule,
    SessionsModule,
    SecondFactorModule,
    EndUsersModule,
    EmailVerificationModule,
  ],
  controllers: [HostedLoginController, HostedSessionsController, HostedSecurityController, HostedAssetsController],
  providers: [
    BrowserSessionsService,
    HostedContexts,
    HostedLoginService,
    HostedVerificationService,
    HostedPasswordResetService,
    HostedSecurityService,
    HostedSessionsService,
    HostedSignUpService,
    SignInContinuations,
    HostedLoginPorts,
    LoginAppNamesPort,
    { provide: LOGIN_APP_NAMES, useExisting: LoginAppNamesPort },
    ApplicationGrantsPort,
    AuthorizationContinuationPort,
    CompanySignInPort,
    PageForms,
  ],
  // The upstream sign-in of SSO connections ends like a hosted sign-in: it asks the same continuation.
  exports: [BrowserSessionsService, AuthorizationContinuationPort, PageForms],
})
export class HostedLoginModule implements NestModule {
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
