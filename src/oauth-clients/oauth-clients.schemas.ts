import { allRequiredSchema, id, namedSchema, ref, str, time } from '../api-docs/response-schema';

export const OAuthClientSchema = allRequiredSchema('OAuthClient', {
  type: 'object',
  properties: {
    id,
    client_id: str('cli_5f2b9c0e7a4d1e3f6a8b0c2d', {
      description: 'Public identifier end users register and sign in with; the OpenID client_id.',
    }),
    name: str('Acme web app'),
    workspace_id: id,
    redirect_uris: {
      type: 'array',
      items: { type: 'string', format: 'uri' },
      example: ['https://app.example.com/callback'],
      description:
        'Exact redirect URIs of the OpenID Connect authorization-code flow (no wildcards; an http loopback IP literal matches any port, RFC 8252 §7.3; a public client may also use a private-use URI scheme named after a domain in reverse order, such as com.example.app:/oauth2redirect, RFC 8252 §7.1).',
    },
    post_logout_redirect_uris: { type: 'array', items: { type: 'string', format: 'uri' }, example: ['https://app.example.com/'] },
    client_type: { type: 'string', enum: ['confidential', 'public'], example: 'confidential' },
    first_party: { type: 'boolean', example: true, description: 'First-party applications skip the consent screen.' },
    allow_signup: {
      type: 'boolean',
      example: false,
      description: 'Its hosted login offers "Create an account" to people who have no account yet.',
    },
    subject_type: { type: 'string', enum: ['public', 'pairwise'], example: 'public' },
    id_token_signed_response_alg: { type: 'string', enum: ['RS256', 'ES256'], example: 'RS256' },
    require_pkce: {
      type: 'boolean',
      example: true,
      description:
        'Authorization requests must carry PKCE (S256). Always true for a public client; a confidential client with false may omit PKCE and then must send a nonce.',
    },
    token_endpoint_auth_method: {
      type: 'string',
      enum: ['client_secret_basic', 'private_key_jwt', 'none'],
      example: 'client_secret_basic',
      description: 'The preferred method; a confidential client may also use client_secret_post.',
    },
    jwks: {
      type: 'object',
      nullable: true,
      additionalProperties: true,
      example: null,
      description: 'Public keys of its private_key_jwt assertions.',
    },
    created_at: time,
  },
});

export const OAuthClientWithSecretSchema = namedSchema('OAuthClientWithSecret', {
  allOf: [
    ref(OAuthClientSchema),
    {
      type: 'object',
      required: ['client_secret'],
      properties: {
        client_secret: str('cs_3qT8vYw1Zp0LmKx5Rb7nHs2Df6Gj9Ac4', {
          nullable: true,
          description: 'Shown once; stored hashed. Null for a public client.',
        }),
      },
    },
  ],
});
