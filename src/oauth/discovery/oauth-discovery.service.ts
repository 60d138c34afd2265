import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ASSERTION_ALGORITHMS } from '../assertions/assertion-verifier';
import { OAuthClientDirectory } from '../clients/oauth-client-directory';
import { SigningKeysService } from '../keys/signing-keys.service';
import { GrantRegistry } from '../token/grants';

/** RFC 8414 metadata, built from what is registered: issue 25 adds its endpoints and grants without editing this. */
@Injectable()
export class OAuthDiscoveryService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly grants: GrantRegistry,
    private readonly directory: OAuthClientDirectory,
    private readonly keys: SigningKeysService,
  ) {}

  metadata() {
    const base = this.config.PUBLIC_BASE_URL;
    return {
      issuer: base,
      token_endpoint: `${base}/oauth/token`,
      jwks_uri: `${base}/oauth/jwks`,
      grant_types_supported: this.grants.grantTypes(),
      response_types_supported: [] as string[],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
      scopes_supported: this.directory.scopes(),
      service_documentation: `${base}/docs`,
    };
  }

  jwks() {
    return this.keys.jwks();
  }
}
