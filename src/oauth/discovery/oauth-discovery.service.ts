import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { declaration } from '../../common/declared-providers';
import { ASSERTION_ALGORITHMS } from '../assertions/assertion-verifier';
import { OAuthClientDirectory } from '../clients/oauth-client-directory';
import { SigningKeysService } from '../keys/signing-keys.service';
import { GrantRegistry } from '../token/grants';
import { OAuthServerInfo } from './oauth-server-info';

/** Members a kind of client adds to the authorization server's metadata. */
export interface ServerMetadataContributor {
  members(): Readonly<Record<string, unknown>>;
}

const contributors = declaration('a server metadata source');

/**
 * Declares a provider a source of members of the discovery document (decision 0964): the OpenID
 * provider's authorization, UserInfo and end-session endpoints, response types and claims.
 */
export const ServerMetadataSource = () => contributors.mark<ServerMetadataContributor>({});

/**
 * RFC 8414 metadata, built from what is declared: the grant types, the clients' scopes, and the
 * members of each @ServerMetadataSource (read once at bootstrap), so the core lists the OpenID
 * provider's without importing it. The same document answers /.well-known/openid-configuration
 * (OpenID Connect Discovery 1.0 §3).
 */
@Injectable()
export class OAuthDiscoveryService implements OnApplicationBootstrap {
  private contributed: Readonly<Record<string, unknown>> = {};

  constructor(
    private readonly server: OAuthServerInfo,
    private readonly grants: GrantRegistry,
    private readonly directory: OAuthClientDirectory,
    private readonly keys: SigningKeysService,
    private readonly discovery: DiscoveryService,
  ) {}

  onApplicationBootstrap(): void {
    const members = contributors.providers<ServerMetadataContributor>(this.discovery).map(({ instance }) => instance.members());
    this.contributed = Object.freeze(Object.assign({}, ...members) as Record<string, unknown>);
  }

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
      ...this.contributed,
    };
  }

  jwks() {
    return this.keys.jwks();
  }
}
