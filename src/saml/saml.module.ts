import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndUsersModule } from '../end-users/end-users.module';
import { IdpRuntime } from './idp/idp-runtime';
import { SamlMetadataController } from './saml-metadata.controller';
import { SamlServiceProvider } from './sps/entities/saml-service-provider.entity';
import { SamlSpsController } from './sps/saml-sps.controller';
import { SamlSpsRepository } from './sps/saml-sps.repository';
import { SamlSpsService } from './sps/saml-sps.service';
import { BrowserUsers } from './sso/browser-user';
import { SamlPendingRequest } from './sso/entities/saml-pending-request.entity';
import { SamlSsoController } from './sso/saml-sso.controller';
import { SamlSsoService } from './sso/saml-sso.service';
import { SsoRequestsRepository } from './sso/sso-requests.repository';

/** SAML 2.0 identity provider: SP registry, metadata, SP-initiated SSO. */
@Module({
  imports: [TypeOrmModule.forFeature([SamlServiceProvider, SamlPendingRequest]), EndUsersModule],
  controllers: [SamlMetadataController, SamlSpsController, SamlSsoController],
  exports: [IdpRuntime, SamlSpsService],
  providers: [IdpRuntime, SamlSpsRepository, SamlSpsService, SamlSsoService, SsoRequestsRepository, BrowserUsers],
})
export class SamlModule {}
