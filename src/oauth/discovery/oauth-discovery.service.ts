import { Injectable } from '@nestjs/common';
import { ASSERTION_ALGORITHMS } from '../assertions/assertion-verifier';
import { OAuthClientDirectory } from '../clients/oauth-client-directory';
import { SigningKeysService } from '../keys/signing-keys.service';
import { GrantRegistry } from '../token/grants';
import { OAuthServerInfo } from './oauth-server-info';

/**
 * RFC 8414 metadata, built from what is registered: the OpenID provider adds its endpoints,
 * response types and claims through OAuthServerInfo without editing this. The same document
 * answers /.well-known/openid-configuration (OpenID Connect Discovery 1.0 §3).
 */
@Injectable()
export class OAuthDiscoveryService {
  constructor(
    private readonly server: OAuthServerInfo,
    private readonly grants: GrantRegistry,
    private readonly directory: OAuthClientDirectory,
    private readonly keys: SigningKeysService,
  ) {}

  metadata() {
    return {
      issuer: this.server.issuer,
      token_endpoint: this.server.url('/oauth/token'),
      jwks_uri: this.server.url('/oauth/jwks'),
      grant_types_supported: this.grants.grantTypes(),
      response_types_supported: [] as string[],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
      scopes_supported: this.directory.scopes(),
      service_documentation: this.server.url('/docs'),
      ...this.server.contributed(),
    };
  }

  jwks() {
    return this.keys.jwks();
  }
}
