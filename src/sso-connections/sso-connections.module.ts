import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { EndUserDirectoryModule } from '../end-user-directory/end-user-directory.module';
import { EndUsersModule } from '../end-users/end-users.module';
import { HostedLoginModule } from '../hosted-login/hosted-login.module';
import { SecondFactorModule } from '../second-factor/second-factor.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SsoAttempt } from './entities/sso-attempt.entity';
import { SsoBinding } from './entities/sso-binding.entity';
import { SsoConnectionDomain } from './entities/sso-connection-domain.entity';
import { SsoConnection } from './entities/sso-connection.entity';
import { SsoConnectionsController } from './sso-connections.controller';
import { SsoSamlController } from './sso-saml.controller';
import { SsoSignInController } from './sso-sign-in.controller';
import { OidcUpstreamService } from './oidc/oidc-upstream.service';
import { SsoOidcFlow } from './entities/sso-oidc-flow.entity';
import { SsoSamlAssertionId } from './saml/entities/sso-saml-assertion-id.entity';
import { SamlAssertionIdsRepository } from './saml/saml-assertion-ids.repository';
import { SamlUpstreamService } from './saml/saml-upstream.service';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { SsoConnectionsRepository } from './sso-connections.repository';
import { SsoConnectionsService } from './sso-connections.service';
import { UpstreamSignInService } from './upstream-sign-in.service';
import { DomainVerificationService } from './domains/domain-verification.service';
import { DomainRouting } from './domains/domain-routing';
import { SsoDomainsRepository } from './domains/sso-domains.repository';
import { TxtLookup } from './domains/txt-lookup';

/**
 * Enterprise SSO connections (docs/sso-connections.md): a workspace's company identity provider,
 * OpenID Connect or SAML 2.0 (src/sso-connections/saml/), bound to the people of its directory.
 * It builds on the directory and the hosted login's sessions; the protocol halves end every
 * sign-in in UpstreamSignInService.completeUpstreamSignIn.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SsoConnection, SsoConnectionDomain, SsoBinding, SsoAttempt, SsoOidcFlow, SsoSamlAssertionId]),
    CommonModule,
    RateLimitModule,
    EndUserDirectoryModule,
    EndUsersModule,
    HostedLoginModule,
    SessionsModule,
    SecondFactorModule,
  ],
  controllers: [SsoConnectionsController, SsoSignInController, SsoSamlController],
  providers: [
    SsoConnectionsRepository,
    SsoConnectionsService,
    UpstreamSignInService,
    OidcUpstreamService,
    SsoDomainsRepository,
    TxtLookup,
    DomainVerificationService,
    SamlUpstreamService,
    SamlAssertionIdsRepository,
    DomainRouting,
  ],
  exports: [SsoConnectionsRepository, UpstreamSignInService],
})
export class SsoConnectionsModule {}
