import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { AssertionJtisRepository } from './assertions/assertion-jtis.repository';
import { AssertionVerifier } from './assertions/assertion-verifier';
import { OAuthAssertionJti } from './assertions/entities/oauth-assertion-jti.entity';
import { KeySets } from './assertions/key-sets';
import { OAuthClientDirectory } from './clients/oauth-client-directory';
import { OAuthDiscoveryController } from './discovery/oauth-discovery.controller';
import { OAuthDiscoveryService } from './discovery/oauth-discovery.service';
import { OAuthServerInfo } from './discovery/oauth-server-info';
import { OAuthSigningKey } from './keys/entities/oauth-signing-key.entity';
import { SigningKeysRepository } from './keys/signing-keys.repository';
import { SigningKeysService } from './keys/signing-keys.service';
import { ClientAuthenticator } from './token/client-authenticator';
import { ClientCredentialsGrant } from './token/client-credentials.grant';
import { GrantRegistry } from './token/grants';
import { JwtBearerGrant } from './token/jwt-bearer.grant';
import { TokenController } from './token/token.controller';
import { TokenAuthorities } from './token-management/token-authorities';
import { TokenManagementController } from './token-management/token-management.controller';
import { TokenManagementService } from './token-management/token-management.service';
import { TokenEndpointService } from './token/token-endpoint.service';
import { AccessTokensService } from './tokens/access-tokens.service';

/**
 * The one OAuth 2.0 authorization server (decision 0900): token endpoint dispatching by grant
 * type, client authentication, signing keys and JWKS, RFC 8414 metadata. Modules above it declare
 * their contributions with a decorator it discovers at bootstrap (decision 0964): a kind of client's
 * store (@ClientStore), a grant (@GrantHandler), a token authority for revocation and introspection
 * (@TokenAuthoritySource), discovery members (@ServerMetadataSource). Resources verify access tokens
 * with AccessTokensService.
 */
@Module({
  imports: [DiscoveryModule, TypeOrmModule.forFeature([OAuthSigningKey, OAuthAssertionJti]), CommonModule],
  controllers: [TokenController, TokenManagementController, OAuthDiscoveryController],
  providers: [
    SigningKeysRepository,
    SigningKeysService,
    AccessTokensService,
    AssertionJtisRepository,
    AssertionVerifier,
    KeySets,
    OAuthClientDirectory,
    GrantRegistry,
    ClientAuthenticator,
    ClientCredentialsGrant,
    JwtBearerGrant,
    TokenEndpointService,
    OAuthDiscoveryService,
    OAuthServerInfo,
    TokenAuthorities,
    TokenManagementService,
  ],
  exports: [AccessTokensService, AssertionVerifier, KeySets, SigningKeysService, OAuthServerInfo, ClientAuthenticator],
})
export class OAuthModule {}
