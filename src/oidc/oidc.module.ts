import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { HostedLoginModule } from '../hosted-login/hosted-login.module';
import { SessionsModule } from '../sessions/sessions.module';
import { OAuthModule } from '../oauth/oauth.module';
import { ApplicationClientStore } from './application-client.store';
import { AuthorizeController } from './authorize/authorize.controller';
import { AuthorizeService } from './authorize/authorize.service';
import { OAuthAppSession } from './entities/oauth-app-session.entity';
import { OAuthAuthorizationCode } from './entities/oauth-authorization-code.entity';
import { OAuthConsent } from './entities/oauth-consent.entity';
import { ApplicationTokens } from './grants/application-tokens';
import { AuthorizationCodeGrant } from './grants/authorization-code.grant';
import { RefreshTokenGrant } from './grants/refresh-token.grant';
import { IdTokensService } from './id-tokens.service';
import { LogoutController } from './logout/logout.controller';
import { LogoutService } from './logout/logout.service';
import { ConsentsService } from './consents.service';
import { ApplicationCors } from './cors/application-cors';
import { OidcMetadata } from './oidc-metadata';
import { OidcRepository } from './oidc.repository';
import { ApplicationAccessTokens } from './tokens/application-access';
import { ApplicationTokenAuthority } from './tokens/application-token-authority';
import { UserInfoController } from './userinfo/userinfo.controller';
import { UserInfoService } from './userinfo/userinfo.service';

/**
 * The applications' OpenID Connect provider (decision 0910): a kind of client of the one authorization
 * server in src/oauth (decision 0900), its authorization endpoint in front of the hosted login,
 * its grants on the shared token endpoint, ID tokens and UserInfo. The core never imports it. The
 * hosted sessions page lists consents through ConsentsService, which declares itself the source of the
 * hosted login's application-grants port (decision 0192).
 */
@Module({
  imports: [
    CommonModule,
    OAuthModule,
    SessionsModule,
    HostedLoginModule,
    TypeOrmModule.forFeature([OAuthAuthorizationCode, OAuthAppSession, OAuthConsent]),
  ],
  controllers: [AuthorizeController, UserInfoController, LogoutController],
  providers: [
    OidcRepository,
    ApplicationClientStore,
    AuthorizeService,
    IdTokensService,
    ApplicationTokens,
    AuthorizationCodeGrant,
    RefreshTokenGrant,
    OidcMetadata,
    UserInfoService,
    ApplicationTokenAuthority,
    ApplicationAccessTokens,
    LogoutService,
    ConsentsService,
    ApplicationCors,
  ],
})
export class OidcModule {}
