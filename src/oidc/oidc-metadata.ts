import { Injectable } from '@nestjs/common';
import { ServerMetadataContributor, ServerMetadataSource } from '../oauth/discovery/oauth-discovery.service';
import { OAuthServerInfo } from '../oauth/discovery/oauth-server-info';
import { ACR_MFA, ACR_SFA } from './scopes';

/** The OpenID provider's members of the discovery document (OpenID Connect Discovery 1.0 §3). */
@Injectable()
@ServerMetadataSource()
export class OidcMetadata implements ServerMetadataContributor {
  constructor(private readonly server: OAuthServerInfo) {}

  members(): Readonly<Record<string, unknown>> {
    const url = (path: string) => this.server.url(path);
    return {
      authorization_endpoint: url('/oauth/authorize'),
      userinfo_endpoint: url('/oauth/userinfo'),
      end_session_endpoint: url('/oauth/logout'),
      revocation_endpoint: url('/oauth/revoke'),
      introspection_endpoint: url('/oauth/introspect'),
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      subject_types_supported: ['public', 'pairwise'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      code_challenge_methods_supported: ['S256'],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
      acr_values_supported: [ACR_SFA, ACR_MFA],
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'amr',
        'acr',
        'azp',
        'sid',
        'email',
        'email_verified',
        'name',
        'given_name',
        'family_name',
      ],
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      authorization_response_iss_parameter_supported: true,
    };
  }
}
