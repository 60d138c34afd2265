import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndUsersModule } from '../end-users/end-users.module';
import { IdpRuntime } from './idp/idp-runtime';
import { SamlMetadataController } from './saml-metadata.controller';
import { SamlServiceProvider } from './sps/entities/saml-service-provider.entity';
import { SamlSpsController } from './sps/saml-sps.controller';
import { SamlSpsRepository } from './sps/saml-sps.repository';
import { SamlSpsService } from './sps/saml-sps.service';
import { LOGIN_APP_NAMES } from '../end-users/hosted-login/login-app-names';
import { BrowserUsers } from './sso/browser-user';
import { SamlPendingRequest } from './sso/entities/saml-pending-request.entity';
import { SamlSsoController } from './sso/saml-sso.controller';
import { SamlSsoService } from './sso/saml-sso.service';
import { SsoRequestsRepository } from './sso/sso-requests.repository';
import { SpLoginNames } from './sso/sp-login-names';

/** SAML 2.0 identity provider: SP registry, metadata, SP-initiated SSO. Global only for LOGIN_APP_NAMES (the hosted login names the SP). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([SamlServiceProvider, SamlPendingRequest]), EndUsersModule],
  controllers: [SamlMetadataController, SamlSpsController, SamlSsoController],
  exports: [IdpRuntime, SamlSpsService, LOGIN_APP_NAMES],
  providers: [
    IdpRuntime,
    SamlSpsRepository,
    SamlSpsService,
    SamlSsoService,
    SsoRequestsRepository,
    BrowserUsers,
    SpLoginNames,
    { provide: LOGIN_APP_NAMES, useExisting: SpLoginNames },
  ],
})
export class SamlModule {}
