import { allRequiredSchema, id, namedSchema, str } from '../api-docs/response-schema';

export const OAuthTokenResponseSchema = namedSchema('OAuthTokenResponse', {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: str('eyJhbGciOiJFZERTQSIsImtpZCI6ImVkZHNhLTEiLCJ0eXAiOiJhdCtqd3QifQ.e30.c2lnbmF0dXJl', {
      description: 'A signed JWT (RFC 9068); use it as the Bearer token of /scim/v2.',
    }),
    token_type: { type: 'string', enum: ['Bearer'], example: 'Bearer' },
    expires_in: { type: 'integer', example: 3600 },
    scope: str('scim'),
    refresh_token: str('rt_R2d9…', {
      description: 'authorization_code and refresh_token grants: the next refresh token (each works once).',
    }),
    id_token: str('eyJhbGciOiJSUzI1NiIsImtpZCI6InJzMjU2LTEifQ.e30.c2ln', {
      description: 'authorization_code and refresh_token grants: the OpenID Connect ID token (RS256 or ES256).',
    }),
  },
});

export const OAuthIntrospectionSchema = namedSchema('OAuthIntrospection', {
  type: 'object',
  description: 'RFC 7662 §2.2. An inactive token is only {"active": false}.',
  required: ['active'],
  properties: {
    active: { type: 'boolean', example: true },
    scope: str('openid email'),
    client_id: str('cli_5f2b9c0e7a4d1e3f6a8b0c2d'),
    token_type: { type: 'string', enum: ['Bearer', 'refresh_token'], example: 'Bearer' },
    sub: str('0f8fad5b-d9cb-469f-a165-70867728950e'),
    exp: { type: 'integer', example: 1795701234 },
    iat: { type: 'integer', example: 1795700334 },
    iss: str('https://id.example.com'),
    aud: str('cli_5f2b9c0e7a4d1e3f6a8b0c2d'),
    sid: id,
  },
});

export const OAuthRevocationSchema = namedSchema('OAuthRevocation', {
  type: 'object',
  description: 'RFC 7009 §2.2: the token is revoked or was never valid; the body is empty and clients ignore it.',
  additionalProperties: false,
  properties: {},
  example: {},
});

export const OAuthErrorSchema = allRequiredSchema('OAuthError', {
  type: 'object',
  description: 'RFC 6749 §5.2 error body.',
  properties: { error: str('invalid_client'), error_description: str('client authentication failed') },
});

export const OAuthServerMetadataSchema = namedSchema('OAuthServerMetadata', {
  type: 'object',
  description: 'RFC 8414 authorization server metadata, which is also the OpenID Provider configuration (OpenID Connect Discovery 1.0 §3).',
  required: ['issuer', 'token_endpoint', 'grant_types_supported', 'token_endpoint_auth_methods_supported'],
  additionalProperties: true,
  properties: {
    issuer: str('https://id.example.com'),
    token_endpoint: str('https://id.example.com/oauth/token'),
    jwks_uri: str('https://id.example.com/oauth/jwks'),
    grant_types_supported: {
      type: 'array',
      items: { type: 'string' },
      example: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
    },
    authorization_endpoint: str('https://id.example.com/oauth/authorize'),
    userinfo_endpoint: str('https://id.example.com/oauth/userinfo'),
    end_session_endpoint: str('https://id.example.com/oauth/logout'),
    revocation_endpoint: str('https://id.example.com/oauth/revoke'),
    introspection_endpoint: str('https://id.example.com/oauth/introspect'),
    response_types_supported: { type: 'array', items: { type: 'string' }, example: ['code'] },
    subject_types_supported: { type: 'array', items: { type: 'string' }, example: ['public', 'pairwise'] },
    id_token_signing_alg_values_supported: { type: 'array', items: { type: 'string' }, example: ['RS256', 'ES256'] },
    code_challenge_methods_supported: { type: 'array', items: { type: 'string' }, example: ['S256'] },
    token_endpoint_auth_methods_supported: {
      type: 'array',
      items: { type: 'string' },
      example: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    },
    token_endpoint_auth_signing_alg_values_supported: { type: 'array', items: { type: 'string' }, example: ['RS256', 'ES256', 'EdDSA'] },
    scopes_supported: { type: 'array', items: { type: 'string' }, example: ['scim'] },
  },
});

export const JwksSchema = allRequiredSchema('Jwks', {
  type: 'object',
  description: 'RFC 7517 JWK Set.',
  properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
  example: {
    keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'eddsa-1', alg: 'EdDSA', use: 'sig' }],
  },
});
