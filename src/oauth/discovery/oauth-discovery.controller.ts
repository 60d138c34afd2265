import { Doc } from '../../api-docs/decorators';
import { PublicDocumentRoute } from '../../api-docs/routes';
import { OAuthDiscoveryService } from './oauth-discovery.service';
import { JwksSchema, OAuthServerMetadataSchema } from '../oauth.schemas';
import { PublicApi } from '../../common/controller-kinds';

@PublicApi('', 'oauth')
export class OAuthDiscoveryController {
  constructor(private readonly discovery: OAuthDiscoveryService) {}

  @Doc(
    'Authorization server metadata',
    'RFC 8414 metadata of the one authorization server: issuer (PUBLIC_BASE_URL), token endpoint, the grant types, client authentication methods, assertion algorithms and scopes it supports, and its JWKS.',
  )
  @PublicDocumentRoute('.well-known/oauth-authorization-server', OAuthServerMetadataSchema, 'The metadata document')
  metadata() {
    return this.discovery.metadata();
  }

  @Doc(
    'OpenID Provider configuration',
    "OpenID Connect Discovery 1.0 §4: the same document as the RFC 8414 metadata, with the OpenID provider's endpoints (authorization, UserInfo, end session, revocation, introspection), response types, subject types, ID token algorithms, claims and ACR values. `issuer` is PUBLIC_BASE_URL.",
  )
  @PublicDocumentRoute('.well-known/openid-configuration', OAuthServerMetadataSchema, 'The configuration document')
  openidConfiguration() {
    return this.discovery.metadata();
  }

  @Doc(
    'Signing keys of the authorization server',
    'RFC 7517 JWK Set with the public keys its access tokens (EdDSA) and ID tokens (RS256, ES256) are signed with; a retired key stays published until the tokens it signed have expired.',
  )
  @PublicDocumentRoute('oauth/jwks', JwksSchema, 'The JWK Set')
  jwks() {
    return this.discovery.jwks();
  }
}
