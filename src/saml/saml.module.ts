import { Module } from '@nestjs/common';
import { IdpRuntime } from './idp/idp-runtime';
import { SamlMetadataController } from './saml-metadata.controller';
import { SamlSpsController } from './sps/saml-sps.controller';
import { SamlSpsService } from './sps/saml-sps.service';
import { EndUsersModule } from '../end-users/end-users.module';
import { BrowserUsers } from './sso/browser-user';
import { SamlSsoController } from './sso/saml-sso.controller';
import { SamlSsoService } from './sso/saml-sso.service';
import { SsoRequestsRepository } from './sso/sso-requests.repository';

/** SAML 2.0 identity provider: SP registry, metadata, SP-initiated SSO. */
@Module({
  imports: [EndUsersModule],
  controllers: [SamlMetadataController, SamlSpsController, SamlSsoController],
  providers: [IdpRuntime, SamlSpsService, SamlSsoService, SsoRequestsRepository, BrowserUsers],
})
export class SamlModule {}
