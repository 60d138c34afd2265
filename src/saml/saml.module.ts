import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { APP_CONFIG, AppConfig } from '../config/config';
import { HostedLoginModule } from '../hosted-login/hosted-login.module';
import { SamlNameIdKey } from './idp/entities/saml-nameid-key.entity';
import { IdpRuntime } from './idp/idp-runtime';
import { NameIdKeysRepository } from './idp/nameid-keys.repository';
import { SamlMetadataController } from './saml-metadata.controller';
import { SamlServiceProvider } from './sps/entities/saml-service-provider.entity';
import { SamlSpsController } from './sps/saml-sps.controller';
import { SamlSpsRepository } from './sps/saml-sps.repository';
import { SamlSpsService } from './sps/saml-sps.service';
import { BrowserUsers } from './sso/browser-user';
import { SamlPendingRequest } from './sso/entities/saml-pending-request.entity';
import { SamlSeenRequest } from './sso/entities/saml-seen-request.entity';
import { SamlSsoController } from './sso/saml-sso.controller';
import { SamlSsoService } from './sso/saml-sso.service';
import { SsoRefusals } from './sso/sso-refusals.service';
import { SsoRequestChecks } from './sso/sso-request-checks.service';
import { SsoResponses } from './sso/sso-responses.service';
import { SsoRequestsRepository } from './sso/sso-requests.repository';
import { SeenRequestsRepository } from './sso/seen-requests.repository';
import { SpLoginNames } from './sso/sp-login-names';

/**
 * SAML 2.0 identity provider: SP registry, metadata, SP-initiated SSO. Above the end-users and hosted
 * login modules (the browser's session): it names the waiting SP to the hosted login by
 * declaring SpLoginNames the source of that module's login-app-names port (decision 0192), not by being global.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SamlServiceProvider, SamlPendingRequest, SamlSeenRequest, SamlNameIdKey]),
    CommonModule,
    RateLimitModule,
    HostedLoginModule,
  ],
  controllers: [SamlMetadataController, SamlSpsController, SamlSsoController],
  exports: [IdpRuntime, SamlSpsService],
  providers: [
    NameIdKeysRepository,
    // Async: the NameID key may come from the database, and whatever injects the runtime sees it complete.
    {
      provide: IdpRuntime,
      inject: [APP_CONFIG, NameIdKeysRepository],
      useFactory: (config: AppConfig, keys: NameIdKeysRepository) => IdpRuntime.create(config, keys),
    },
    SamlSpsRepository,
    SamlSpsService,
    SamlSsoService,
    SsoRequestChecks,
    SsoResponses,
    SsoRefusals,
    SsoRequestsRepository,
    SeenRequestsRepository,
    BrowserUsers,
    SpLoginNames,
  ],
})
export class SamlModule {}
