import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * Named response (and SCIM request) bodies of the OpenAPI description, registered under
 * components.schemas by buildOpenApiDocument. Request bodies of our own JSON APIs are the
 * validated DTO classes; these describe what the services return (their *View types).
 */

const id = { type: 'string', format: 'uuid', example: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' } as const;
const time = { type: 'string', format: 'date-time', example: '2026-11-24T12:00:00.000Z' } as const;
const nullableTime = { ...time, nullable: true } as const;
const str = (example: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'string', example, ...extra });

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const USER_EXAMPLE = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
  externalId: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
  userName: 'ada@example.com',
  name: { givenName: 'Ada', familyName: 'Lovelace', formatted: 'Ada Lovelace' },
  displayName: 'Ada Lovelace',
  emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
  active: true,
  meta: {
    resourceType: 'User',
    created: '2026-11-24T12:00:00.000Z',
    lastModified: '2026-11-24T12:00:00.000Z',
    location: 'https://id.example.com/scim/v2/Users/8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
  },
};
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const scimMeta = (resourceType: string): SchemaObject => ({
  type: 'object',
  readOnly: true,
  properties: {
    resourceType: str(resourceType),
    created: time,
    lastModified: time,
    location: str(`https://id.example.com/scim/v2/${resourceType}s/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11`, { format: 'uri' }),
  },
});

const scimUserProperties: Record<string, SchemaObject> = {
  schemas: { type: 'array', items: { type: 'string' }, example: [USER_SCHEMA] },
  userName: str('ada@example.com', {
    description: 'The email address; unique in the workspace, case-insensitive (409 `uniqueness` when taken).',
  }),
  name: {
    type: 'object',
    properties: { givenName: str('Ada'), familyName: str('Lovelace'), formatted: { ...str('Ada Lovelace'), readOnly: true } },
  },
  emails: {
    type: 'array',
    description: 'The entry marked primary overrides userName as the stored email.',
    items: {
      type: 'object',
      required: ['value'],
      properties: { value: str('ada@example.com', { format: 'email' }), type: str('work'), primary: { type: 'boolean', example: true } },
    },
  },
  active: { type: 'boolean', example: true, description: 'false deactivates the user and ends their sessions.' },
};

const scimUserSchema: SchemaObject = {
  type: 'object',
  example: USER_EXAMPLE,
  required: ['schemas', 'id', 'userName', 'active', 'meta'],
  properties: {
    ...scimUserProperties,
    id: { ...id, readOnly: true },
    externalId: { ...id, readOnly: true, description: 'Echoes id: a client-sent externalId is not stored.' },
    displayName: { ...str('Ada Lovelace'), readOnly: true },
    meta: scimMeta('User'),
  },
};

const scimGroupSchema: SchemaObject = {
  type: 'object',
  required: ['schemas', 'id', 'displayName', 'meta'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' }, example: [GROUP_SCHEMA] },
    id: { ...id, readOnly: true },
    displayName: str('Engineering'),
    members: {
      type: 'array',
      items: { $ref: '#/components/schemas/ScimGroupMember' },
      description: 'Left out with excludedAttributes=members.',
    },
    meta: scimMeta('Group'),
  },
};

/**
 * What a read or write answers with `attributes` or `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9):
 * the same resource with only schemas and id sure to be there.
 */
function partialScim(full: SchemaObject, kind: string): SchemaObject {
  return {
    ...full,
    description: `A ${kind} as returned with attributes or excludedAttributes: schemas and id always, any other attribute only when asked for (or not excluded).`,
    required: ['schemas', 'id'],
  };
}

export const SCHEMAS = {
  Error: {
    type: 'object',
    description: 'Error body of every route outside /scim/v2 (HTML pages aside).',
    required: ['error', 'message'],
    properties: {
      error: str('validation_failed', { description: 'Stable snake_case code: branch on this, not on the message.' }),
      message: str('Invalid request: check password'),
      details: {
        type: 'object',
        additionalProperties: true,
        description: 'For validation_failed: field name → list of problems.',
        example: { password: ['password must be longer than or equal to 8 characters'] },
      },
      request_id: str('5b1d0e2e-8c53-4d1c-a3a9-2d8f0b1c9e77', { description: 'On 5xx answers: quote it when reporting a problem.' }),
    },
  },
  ScimError: {
    type: 'object',
    description: 'RFC 7644 §3.12 error body of every /scim/v2 route.',
    required: ['schemas', 'status', 'detail'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:api:messages:2.0:Error'] },
      status: str('409', { description: 'The HTTP status, as a string.' }),
      scimType: {
        type: 'string',
        enum: [
          'invalidFilter',
          'tooMany',
          'uniqueness',
          'mutability',
          'invalidSyntax',
          'invalidPath',
          'noTarget',
          'invalidValue',
          'invalidVers',
          'sensitive',
          'tooLarge',
          'invalidCursor',
        ],
        example: 'uniqueness',
      },
      detail: str('userName ada@example.com is already taken'),
    },
  },
  Developer: {
    type: 'object',
    required: ['id', 'email', 'name', 'created_at'],
    properties: { id, email: str('dev@example.com', { format: 'email' }), name: str('Grace Hopper'), created_at: time },
  },
  DeveloperLogin: {
    type: 'object',
    required: ['developer', 'csrf_token'],
    properties: {
      developer: { $ref: '#/components/schemas/Developer' },
      csrf_token: str('q5Xo1b9v0mQ2Yk3Zr8w7tA', {
        description:
          'Send it as X-CSRF-Token on every cookie-authenticated POST/PUT/PATCH/DELETE (also readable from the csrftoken cookie).',
      }),
    },
  },
  DeveloperToken: {
    type: 'object',
    required: ['id', 'label', 'expires_at', 'created_at'],
    properties: { id, label: str('CI pipeline'), expires_at: nullableTime, created_at: time },
  },
  DeveloperTokenCreated: {
    type: 'object',
    required: ['id', 'label', 'token', 'expires_at', 'created_at'],
    properties: {
      id,
      label: str('CI pipeline'),
      token: str('dat_R2x0bE9uZVRpbWVTZWNyZXRUb2tlbkV4YW1wbGU', { description: 'Shown once; send as `Authorization: Bearer …`.' }),
      expires_at: nullableTime,
      created_at: time,
    },
  },
  Workspace: {
    type: 'object',
    required: ['id', 'name', 'description', 'database_count', 'member_count', 'created_at'],
    properties: {
      id,
      name: str('Acme production'),
      description: str('Directory sync for Acme'),
      database_count: { type: 'integer', example: 2 },
      member_count: { type: 'integer', example: 3 },
      created_at: time,
    },
  },
  WorkspaceMember: {
    type: 'object',
    required: ['developer_id', 'email', 'name', 'role', 'created_at'],
    properties: {
      developer_id: id,
      email: str('dev@example.com', { format: 'email' }),
      name: str('Grace Hopper'),
      role: { type: 'string', enum: ['owner', 'member'], example: 'member' },
      created_at: time,
    },
  },
  OAuthClient: {
    type: 'object',
    required: [
      'id',
      'client_id',
      'name',
      'workspace_id',
      'redirect_uris',
      'post_logout_redirect_uris',
      'client_type',
      'first_party',
      'subject_type',
      'id_token_signed_response_alg',
      'token_endpoint_auth_method',
      'jwks',
      'created_at',
    ],
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
          'Exact redirect URIs of the OpenID Connect authorization-code flow (no wildcards; an http loopback IP literal matches any port, RFC 8252 §7.3).',
      },
      post_logout_redirect_uris: { type: 'array', items: { type: 'string', format: 'uri' }, example: ['https://app.example.com/'] },
      client_type: { type: 'string', enum: ['confidential', 'public'], example: 'confidential' },
      first_party: { type: 'boolean', example: true, description: 'First-party applications skip the consent screen.' },
      subject_type: { type: 'string', enum: ['public', 'pairwise'], example: 'public' },
      id_token_signed_response_alg: { type: 'string', enum: ['RS256', 'ES256'], example: 'RS256' },
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
  },
  OAuthClientWithSecret: {
    allOf: [
      { $ref: '#/components/schemas/OAuthClient' },
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
  },
  ScimToken: {
    type: 'object',
    required: ['id', 'workspace_id', 'label', 'expires_at', 'is_active', 'revoked_at', 'created_at'],
    properties: {
      id,
      workspace_id: id,
      label: str('Okta'),
      expires_at: nullableTime,
      is_active: { type: 'boolean', example: true },
      revoked_at: nullableTime,
      created_at: time,
    },
  },
  ScimTokenCreated: {
    allOf: [
      { $ref: '#/components/schemas/ScimToken' },
      {
        type: 'object',
        required: ['token'],
        properties: {
          token: str('scim_pV3xQ9rT2mW8kL5nB1cZ7yH4dF6gJ0aS', {
            description: 'Shown once: give it to the identity provider as its bearer token.',
          }),
        },
      },
    ],
  },
  ScimTokenRevoked: {
    type: 'object',
    required: ['id', 'is_active', 'revoked_at'],
    properties: { id, is_active: { type: 'boolean', enum: [false], example: false }, revoked_at: time },
  },
  ScimClientSecret: {
    type: 'object',
    required: ['id', 'expires_at', 'created_at', 'revoked_at'],
    properties: { id, expires_at: time, created_at: time, revoked_at: nullableTime },
  },
  ScimClientSecretCreated: {
    type: 'object',
    required: ['id', 'value', 'expires_at'],
    properties: {
      id,
      value: str('scs_Qm9uZ1x0cmVhbGx5YXNlY3JldGJ1dGFuZXhhbXBsZQ', {
        description: 'Shown once: give it to the identity provider as its client secret.',
      }),
      expires_at: time,
    },
  },
  ScimClient: {
    type: 'object',
    required: ['id', 'client_id', 'label', 'workspace_id', 'created_at', 'revoked_at', 'secrets', 'keys', 'federation'],
    properties: {
      id,
      client_id: str('scimc_4f0d1e2a9b8c7d6e5f4a3b2c1d0e9f8a'),
      label: str('Entra ID provisioning'),
      workspace_id: id,
      created_at: time,
      revoked_at: nullableTime,
      secrets: { type: 'array', items: { $ref: '#/components/schemas/ScimClientSecret' } },
      keys: {
        type: 'object',
        nullable: true,
        description: 'Keys of its private_key_jwt assertions.',
        properties: {
          jwks_uri: { type: 'string', format: 'uri', nullable: true },
          jwks: { type: 'object', nullable: true, additionalProperties: true },
        },
      },
      federation: {
        type: 'object',
        nullable: true,
        description: 'The external issuer it trusts for the JWT-bearer grant.',
        properties: {
          issuer: str('https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/v2.0'),
          jwks_uri: { type: 'string', format: 'uri' },
          subject: str('5a8d0c0e-0000-4000-8000-000000000000'),
          audience: { type: 'string', nullable: true },
        },
      },
    },
  },
  ScimClientCreated: {
    type: 'object',
    required: ['id', 'client_id', 'label', 'workspace_id', 'created_at', 'secret'],
    properties: {
      id,
      client_id: str('scimc_4f0d1e2a9b8c7d6e5f4a3b2c1d0e9f8a'),
      label: str('Entra ID provisioning'),
      workspace_id: id,
      created_at: time,
      secret: { $ref: '#/components/schemas/ScimClientSecretCreated' },
    },
  },
  OAuthTokenResponse: {
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
  },
  OidcUserInfo: {
    type: 'object',
    description: "OpenID Connect Core §5.3 claims, by the grant's scope.",
    required: ['sub'],
    properties: {
      sub: str('0f8fad5b-d9cb-469f-a165-70867728950e'),
      email: str('ada@example.com'),
      email_verified: { type: 'boolean', example: true },
      name: str('Ada Lovelace'),
      given_name: str('Ada'),
      family_name: str('Lovelace'),
    },
  },
  OAuthIntrospection: {
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
  },
  OAuthRevocation: {
    type: 'object',
    description: 'RFC 7009 §2.2: the token is revoked or was never valid; the body is empty and clients ignore it.',
    additionalProperties: false,
    properties: {},
    example: {},
  },
  OAuthError: {
    type: 'object',
    description: 'RFC 6749 §5.2 error body.',
    required: ['error', 'error_description'],
    properties: { error: str('invalid_client'), error_description: str('client authentication failed') },
  },
  OAuthServerMetadata: {
    type: 'object',
    description:
      'RFC 8414 authorization server metadata, which is also the OpenID Provider configuration (OpenID Connect Discovery 1.0 §3).',
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
  },
  Jwks: {
    type: 'object',
    description: 'RFC 7517 JWK Set.',
    required: ['keys'],
    properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
    example: {
      keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'eddsa-1', alg: 'EdDSA', use: 'sig' }],
    },
  },
  AuditEvent: {
    type: 'object',
    required: ['id', 'event_type', 'severity', 'actor_type', 'message', 'metadata', 'created_at'],
    properties: {
      id,
      workspace_id: { ...id, nullable: true },
      event_type: str('scim_user_create'),
      severity: { type: 'string', enum: ['info', 'warn', 'error'], example: 'info' },
      actor_type: str('scim_token'),
      actor_id: { type: 'string', nullable: true, example: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' },
      actor_email: { type: 'string', nullable: true, example: null },
      target_type: { type: 'string', nullable: true, example: 'User' },
      target_id: { type: 'string', nullable: true, example: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13' },
      oauth_client_id: { type: 'string', nullable: true, example: null },
      ip_address: { type: 'string', nullable: true, example: '203.0.113.7' },
      user_agent: { type: 'string', nullable: true, example: 'Okta SCIM Client 1.0.0' },
      request_id: { type: 'string', nullable: true, example: '5b1d0e2e-8c53-4d1c-a3a9-2d8f0b1c9e77' },
      message: str('SCIM user ada@example.com created'),
      metadata: { type: 'object', additionalProperties: true, example: { email: 'ada@example.com' } },
      created_at: str('2026-11-24T12:00:00.123456Z', {
        format: 'date-time',
        description: 'With microseconds: the value to pass as `cursor` for the next page.',
      }),
    },
  },
  AuditPage: {
    type: 'object',
    required: ['results', 'next_cursor', 'limit'],
    properties: {
      results: { type: 'array', items: { $ref: '#/components/schemas/AuditEvent' } },
      next_cursor: {
        type: 'string',
        nullable: true,
        example: '2026-11-24T12:00:00.123456Z',
        description: 'Pass as `cursor` to read older events; null at the end.',
      },
      limit: { type: 'integer', example: 50 },
    },
  },
  AuditVerifyResult: {
    type: 'object',
    description: 'What GET /developer/audit/verify/ found: the links and checkpoints that check out, and the first break, if any.',
    required: ['verified', 'checkpoints', 'first_break'],
    properties: {
      verified: { type: 'integer', example: 1234, description: 'Links recomputed and found intact, in seq order, before any break.' },
      checkpoints: { type: 'integer', example: 20, description: 'Signed checkpoints in the span whose signature and head matched.' },
      first_break: {
        type: 'object',
        nullable: true,
        description: 'null: the chain is intact over the span. Otherwise the first problem; the walk stops there.',
        required: ['event_id', 'seq', 'reason'],
        properties: {
          event_id: {
            type: 'string',
            format: 'uuid',
            nullable: true,
            example: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
            description: 'The event (or checkpoint head) at fault; null when a link is missing from the sequence.',
          },
          seq: { type: 'integer', example: 57, description: 'Position in the chain where the break is.' },
          reason: {
            type: 'string',
            enum: ['edited_event', 'missing_event', 'inserted_event', 'bad_checkpoint_signature', 'checkpoint_mismatch'],
            example: 'edited_event',
          },
        },
        example: null,
      },
    },
  },
  AuditCheckpoint: {
    type: 'object',
    description: 'A signed chain head: an Ed25519 signature over its workspace_id, seq, event_id, hash and signed_at (docs/audit.md).',
    required: ['id', 'workspace_id', 'seq', 'event_id', 'hash', 'key_id', 'signature', 'signed_at'],
    properties: {
      id,
      workspace_id: id,
      seq: { type: 'integer', example: 1234, description: 'Chain position of the head it signs.' },
      event_id: { ...id, description: 'The event sealed at that position.' },
      hash: str('9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a0c2e4f6a8b0d2f4e6a8c0b', {
        description: 'The chain hash at seq (hex SHA-256).',
      }),
      key_id: str('audit-2026-11', { description: 'Which key of GET /developer/audit/keys/ signed it.' }),
      signature: str('m0x3mQ1mB3Zr8c2k9Vq4W7tY5uN6pA1sD8fG2hJ4kL0zX9cV7bN3mQ5wE2rT6yU1iO4pA8sD0fG3hJ5kL7zX9cVw==', {
        description: 'Base64 Ed25519 signature.',
      }),
      signed_at: time,
    },
  },
  AuditCheckpointPage: {
    type: 'object',
    required: ['results', 'next_cursor'],
    properties: {
      results: { type: 'array', items: { $ref: '#/components/schemas/AuditCheckpoint' } },
      next_cursor: {
        type: 'integer',
        nullable: true,
        example: 1234,
        description: 'A seq: pass it as `cursor` for the next page; null at the end.',
      },
    },
  },
  AuditPublicKey: {
    type: 'object',
    required: ['key_id', 'algorithm', 'public_key', 'status'],
    properties: {
      key_id: str('audit-2026-11'),
      algorithm: { type: 'string', enum: ['Ed25519'], example: 'Ed25519' },
      public_key: str(
        '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n',
        {
          description: 'PEM (SPKI).',
        },
      ),
      status: {
        type: 'string',
        enum: ['active', 'retired'],
        example: 'active',
        description: 'active signs new checkpoints; retired keys stay published so older checkpoints still verify.',
      },
    },
  },
  AuditPublicKeys: {
    type: 'object',
    required: ['keys'],
    properties: { keys: { type: 'array', items: { $ref: '#/components/schemas/AuditPublicKey' } } },
  },
  Webhook: {
    type: 'object',
    description: 'A webhook endpoint of a workspace (Standard Webhooks). Its secret is never shown again after creation or rotation.',
    required: ['id', 'workspace_id', 'url', 'event_types', 'description', 'is_active', 'disabled_reason', 'created_at', 'updated_at'],
    properties: {
      id,
      workspace_id: id,
      url: str('https://hooks.example.com/idsvc', { format: 'uri' }),
      event_types: {
        type: 'array',
        items: { type: 'string' },
        example: ['scim_user_create', 'scim_user_delete'],
        description: 'Audit catalog event types delivered, or ["*"] for all.',
      },
      description: str('Provisioning sync'),
      is_active: {
        type: 'boolean',
        example: true,
        description: 'false: paused by PATCH, or disabled after failing for the whole retry window.',
      },
      disabled_reason: {
        type: 'string',
        nullable: true,
        example: null,
        description: 'Why the service disabled it (set with is_active=false after failing for WEBHOOK_RETRY_WINDOW_MS); null otherwise.',
      },
      created_at: time,
      updated_at: time,
    },
  },
  WebhookWithSecret: {
    allOf: [
      { $ref: '#/components/schemas/Webhook' },
      {
        type: 'object',
        required: ['secret'],
        properties: {
          secret: str('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', {
            description: "Shown in this answer only: verify each delivery's webhook-signature with it (stored encrypted).",
          }),
        },
      },
    ],
  },
  WebhookDelivery: {
    type: 'object',
    required: [
      'id',
      'webhook_id',
      'event_id',
      'event_type',
      'status',
      'attempts',
      'last_response_code',
      'last_error',
      'next_attempt_at',
      'created_at',
      'delivered_at',
    ],
    properties: {
      id: { ...id, description: 'Also sent as the webhook-id header, the same on every attempt.' },
      webhook_id: id,
      event_id: { ...id, nullable: true, description: 'The audit event delivered; null for a webhook_test message.' },
      event_type: str('scim_user_create'),
      status: {
        type: 'string',
        enum: ['pending', 'succeeded', 'failed'],
        example: 'pending',
        description: 'pending: waiting for its (next) attempt; failed: the retry window ran out (retry it by hand).',
      },
      attempts: { type: 'integer', example: 0 },
      last_response_code: {
        type: 'integer',
        nullable: true,
        example: null,
        description: 'HTTP status of the last attempt; null if none answered.',
      },
      last_error: {
        type: 'string',
        nullable: true,
        example: null,
        description: 'Why the last attempt failed (status and start of the body, or the network error).',
      },
      next_attempt_at: { ...nullableTime, description: 'When a pending delivery is next tried; null otherwise.' },
      created_at: time,
      delivered_at: { ...nullableTime, example: null },
    },
  },
  EmailTemplate: {
    type: 'object',
    required: ['name', 'display_name', 'subject', 'from_name', 'body', 'placeholders', 'is_default', 'updated_at'],
    properties: {
      name: {
        type: 'string',
        enum: ['registration_confirmation', 'password_reset', 'new_device_alert', 'sign_in_code', 'sign_in_blocked'],
        example: 'registration_confirmation',
      },
      display_name: str('Registration confirmation'),
      subject: str('Your {{app_name}} code'),
      from_name: str('Acme'),
      body: str('Hello {{first_name}}, your code is {{code}}.'),
      placeholders: { type: 'array', items: { type: 'string' }, example: ['first_name', 'code', 'app_name'] },
      is_default: { type: 'boolean', example: false, description: 'true: the built-in text (nothing saved for this workspace).' },
      updated_at: nullableTime,
    },
  },
  EndUserSession: {
    type: 'object',
    required: ['id', 'browser_family', 'os_family', 'kind', 'amr', 'created_at', 'last_seen_at', 'current'],
    properties: {
      id,
      ip_address: { type: 'string', nullable: true, example: '203.0.113.7' },
      country: { type: 'string', nullable: true, example: 'FR' },
      city: { type: 'string', nullable: true, example: 'Paris' },
      user_agent: { type: 'string', nullable: true, example: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/130.0' },
      browser_family: str('Firefox'),
      os_family: str('Mac OS'),
      kind: { type: 'string', enum: ['api', 'browser'], example: 'api' },
      amr: {
        type: 'array',
        items: { type: 'string' },
        example: ['pwd', 'otp', 'mfa'],
        description:
          'How the session was authenticated (RFC 8176): `pwd` password, `otp` one-time code, `hwk`/`swk` passkey, `mfa` two factors.',
      },
      created_at: time,
      last_seen_at: time,
      current: { type: 'boolean', example: true, description: 'The session of the token making this call.' },
    },
  },
  MfaStatus: {
    type: 'object',
    required: ['totp', 'passkeys', 'recovery_codes_left'],
    properties: {
      totp: { type: 'boolean', example: true, description: 'An authenticator app is set up (confirmed).' },
      passkeys: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'name', 'created_at', 'last_used_at'],
          properties: { id, name: str('YubiKey 5C'), created_at: time, last_used_at: nullableTime },
        },
      },
      recovery_codes_left: { type: 'integer', example: 9, description: 'Unused recovery codes.' },
    },
  },
  TotpEnrolment: {
    type: 'object',
    required: ['secret', 'otpauth_uri'],
    properties: {
      secret: str('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', { description: 'Base32 secret, for typing into an app by hand' }),
      otpauth_uri: str(
        'otpauth://totp/Acme%20Notes:ada%40example.com?issuer=Acme%20Notes&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
        {
          description: 'Key URI for a QR code',
        },
      ),
    },
  },
  RecoveryCodes: {
    type: 'object',
    required: ['recovery_codes'],
    properties: {
      recovery_codes: {
        type: 'array',
        nullable: true,
        items: { type: 'string' },
        example: [
          'K7QH2-M9XTR',
          'B4WPN-2ZKQC',
          'H8RT3-VXN6M',
          'Q2MZ7-KJ4PW',
          'T9XBC-3RHN8',
          'W6KDP-Q7M2Z',
          'Z3NVR-8BXK4',
          'C5HTM-W2QJ9',
          'P7ZKX-N4BR3',
          'R2QWM-6TCH8',
        ],
        description: 'Ten single-use codes, shown this once; null when this was not the first factor.',
      },
    },
  },
  SignInPolicy: {
    type: 'object',
    required: ['workspace_id', 'new_device', 'new_ip', 'new_country', 'impossible_travel', 'updated_at'],
    properties: {
      workspace_id: id,
      new_device: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'challenge' },
      new_ip: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'allow' },
      new_country: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'challenge' },
      impossible_travel: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'block' },
      updated_at: { ...nullableTime, description: 'Null while the workspace never set a policy (all allow).' },
    },
  },
  Passkey: {
    type: 'object',
    required: ['id', 'name', 'created_at', 'last_used_at'],
    properties: { id, name: str('MacBook Touch ID'), created_at: time, last_used_at: nullableTime },
  },
  PasskeyRegistered: {
    type: 'object',
    required: ['passkey', 'recovery_codes'],
    properties: {
      passkey: { $ref: '#/components/schemas/Passkey' },
      recovery_codes: {
        type: 'array',
        nullable: true,
        items: { type: 'string' },
        example: null,
        description: 'Ten single-use codes when this passkey is the first factor of the account (shown this once), else null.',
      },
    },
  },
  PasskeyCreationOptions: {
    type: 'object',
    description:
      'WebAuthn PublicKeyCredentialCreationOptionsJSON: pass it to `startRegistration({optionsJSON})` of @simplewebauthn/browser (or `PublicKeyCredential.parseCreationOptionsFromJSON`). The challenge works once, for 5 minutes.',
    required: ['rp', 'user', 'challenge', 'pubKeyCredParams'],
    additionalProperties: true,
    properties: {
      rp: { type: 'object', example: { name: 'Acme Notes', id: 'id.example.com' } },
      user: { type: 'object', example: { id: 'q1Ai7Vd8Qk2l9Jm0Xb3Ykw', name: 'ada@example.com', displayName: 'ada@example.com' } },
      challenge: str('Xc3mQ0Lr7VYq9h2ZbT4nUw8Jk1sPdFg6'),
      pubKeyCredParams: {
        type: 'array',
        items: { type: 'object' },
        example: [
          { alg: -8, type: 'public-key' },
          { alg: -7, type: 'public-key' },
        ],
      },
      timeout: { type: 'integer', example: 300000 },
      excludeCredentials: { type: 'array', items: { type: 'object' }, example: [] },
      authenticatorSelection: {
        type: 'object',
        example: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      },
      attestation: str('none'),
    },
  },
  PasskeyRequestOptions: {
    type: 'object',
    description:
      'WebAuthn PublicKeyCredentialRequestOptionsJSON: pass it to `startAuthentication({optionsJSON})` of @simplewebauthn/browser. The challenge works once, for 5 minutes.',
    required: ['challenge', 'rpId'],
    additionalProperties: true,
    properties: {
      challenge: str('Lr7VYq9h2ZbT4nUw8Jk1sPdFg6Xc3mQ0'),
      rpId: str('id.example.com'),
      timeout: { type: 'integer', example: 300000 },
      userVerification: str('preferred'),
      allowCredentials: {
        type: 'array',
        items: { type: 'object' },
        example: [{ id: 'AVx9dK1m3Qw7Lr2ZbT4nUw', type: 'public-key', transports: ['internal'] }],
      },
    },
  },
  MfaRequired: {
    type: 'object',
    required: ['mfa_required', 'mfa_token', 'methods'],
    properties: {
      mfa_required: { type: 'boolean', enum: [true], example: true },
      mfa_token: str('mfa_Vb2xQ9kT4mZ7pL1cR8nW5hY3jF6gD0sAe2Uo7IiKx', { description: 'Single use, 5 minutes, void after 5 wrong codes' }),
      methods: {
        type: 'array',
        items: { type: 'string', enum: ['totp', 'passkey', 'recovery_code', 'email_code'] },
        example: ['totp', 'recovery_code'],
      },
    },
  },
  Success: {
    type: 'object',
    required: ['success'],
    properties: { success: { type: 'boolean', enum: [true], example: true } },
  },
  SamlServiceProvider: {
    type: 'object',
    required: [
      'id',
      'workspace_id',
      'name',
      'sp_entity_id',
      'acs_url',
      'name_id_format',
      'name_id_attribute',
      'sign_assertions',
      'attribute_mapping',
      'sp_cert_pem',
      'default_relay_state',
      'is_active',
      'created_at',
      'updated_at',
    ],
    properties: {
      id,
      workspace_id: id,
      name: str('Acme wiki'),
      sp_entity_id: str('https://wiki.example.com/saml/metadata'),
      acs_url: str('https://wiki.example.com/saml/acs', { format: 'uri' }),
      name_id_format: str('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'),
      name_id_attribute: str('email'),
      sign_assertions: { type: 'boolean', example: true },
      attribute_mapping: { type: 'object', additionalProperties: { type: 'string' }, example: { email: 'email', firstName: 'first_name' } },
      sp_cert_pem: { type: 'string', nullable: true, example: null },
      default_relay_state: { type: 'string', nullable: true, example: null },
      is_active: { type: 'boolean', example: true },
      created_at: time,
      updated_at: time,
    },
  },
  Liveness: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } } },
  ScimUser: scimUserSchema,
  ScimUserPartial: partialScim(scimUserSchema, 'User'),
  ScimUserInput: {
    type: 'object',
    description:
      'POST creates, PUT replaces (attributes not sent keep their value). Attribute names are case-insensitive; password, externalId and unknown or extension attributes are accepted and ignored.',
    required: ['userName'],
    properties: scimUserProperties,
  },
  ScimGroupMember: {
    type: 'object',
    required: ['value'],
    properties: {
      value: { ...id, description: 'Id of a user of the same workspace.' },
      display: { ...str('Ada Lovelace'), readOnly: true },
      type: { ...str('User'), readOnly: true },
      $ref: { ...str('https://id.example.com/scim/v2/Users/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11', { format: 'uri' }), readOnly: true },
    },
  },
  ScimGroup: scimGroupSchema,
  ScimGroupPartial: partialScim(scimGroupSchema, 'Group'),
  ScimGroupInput: {
    type: 'object',
    description:
      'displayName is unique in the workspace (409 `uniqueness`). Members are ids of users of the same workspace; other ids are not added.',
    required: ['displayName'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: [GROUP_SCHEMA] },
      displayName: str('Engineering'),
      members: { type: 'array', items: { type: 'object', required: ['value'], properties: { value: id } } },
    },
  },
  ScimPatchRequest: {
    type: 'object',
    description: 'RFC 7644 §3.5.2. Operation names are case-insensitive (Okta and Entra send "Replace", "Add").',
    required: ['schemas', 'Operations'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'] },
      Operations: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['op'],
          properties: {
            op: { type: 'string', enum: ['add', 'remove', 'replace', 'Add', 'Remove', 'Replace'], example: 'replace' },
            path: str('active', {
              description:
                'Attribute path, optionally with a filter: members[value eq "…"]. A path the server cannot read is 400 `invalidPath`.',
            }),
            value: { description: 'New value; without path, an object of attributes.', example: false },
          },
        },
      },
    },
  },
  ScimSearchRequest: {
    type: 'object',
    description: 'RFC 7644 §3.4.3 SearchRequest: the list parameters of GET, in a body. Names are case-insensitive; all optional.',
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] },
      filter: str('userName sw "ada"'),
      startIndex: { type: 'integer', example: 1 },
      cursor: str('', { description: 'RFC 9865 cursor paging instead of startIndex: empty for the first page.' }),
      count: { type: 'integer', example: 10, description: 'Default 100, clamped to 0..200.' },
      attributes: { type: 'array', items: { type: 'string' }, example: ['userName', 'active'] },
      excludedAttributes: { type: 'array', items: { type: 'string' }, example: ['members'] },
    },
  },
  ScimUserList: {
    type: 'object',
    required: ['schemas', 'totalResults', 'itemsPerPage', 'Resources'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'] },
      totalResults: { type: 'integer', example: 1 },
      startIndex: { type: 'integer', example: 1, description: 'Index paging only.' },
      nextCursor: str('dToxNzk1Njg2NDY2MjIzMDAwLjNmMGM2YTUyLTJmNTktNGY4ZS05YTUxLTViMGY3ZDBjMmUxMQ', {
        description: 'Cursor paging (RFC 9865): the cursor of the next page; absent on the last page and with index paging.',
      }),
      itemsPerPage: { type: 'integer', example: 1 },
      Resources: {
        type: 'array',
        items: { anyOf: [{ $ref: '#/components/schemas/ScimUser' }, { $ref: '#/components/schemas/ScimUserPartial' }] },
      },
    },
  },
  ScimGroupList: {
    type: 'object',
    required: ['schemas', 'totalResults', 'itemsPerPage', 'Resources'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'] },
      totalResults: { type: 'integer', example: 1 },
      startIndex: { type: 'integer', example: 1, description: 'Index paging only.' },
      nextCursor: str('dToxNzk1Njg2NDY2MjIzMDAwLjNmMGM2YTUyLTJmNTktNGY4ZS05YTUxLTViMGY3ZDBjMmUxMQ', {
        description: 'Cursor paging (RFC 9865): the cursor of the next page; absent on the last page and with index paging.',
      }),
      itemsPerPage: { type: 'integer', example: 1 },
      Resources: {
        type: 'array',
        items: { anyOf: [{ $ref: '#/components/schemas/ScimGroup' }, { $ref: '#/components/schemas/ScimGroupPartial' }] },
      },
    },
  },
  ScimResourceList: {
    type: 'object',
    description: 'ListResponse of a search across Users and Groups: each resource says its kind in meta.resourceType.',
    required: ['schemas', 'totalResults', 'itemsPerPage', 'Resources'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'] },
      totalResults: { type: 'integer', example: 1 },
      startIndex: { type: 'integer', example: 1, description: 'Index paging only.' },
      nextCursor: str('dToxNzk1Njg2NDY2MjIzMDAwLjNmMGM2YTUyLTJmNTktNGY4ZS05YTUxLTViMGY3ZDBjMmUxMQ', {
        description: 'Cursor paging (RFC 9865): the cursor of the next page; absent on the last page and with index paging.',
      }),
      itemsPerPage: { type: 'integer', example: 1 },
      Resources: {
        type: 'array',
        items: {
          anyOf: [
            { $ref: '#/components/schemas/ScimUser' },
            { $ref: '#/components/schemas/ScimGroup' },
            { $ref: '#/components/schemas/ScimUserPartial' },
            { $ref: '#/components/schemas/ScimGroupPartial' },
          ],
        },
        example: [USER_EXAMPLE],
      },
    },
  },
  ScimDiscoveryList: {
    type: 'object',
    description: 'ListResponse of ResourceType or Schema documents (RFC 7644 §4).',
    // example: the served documents, filled in by src/openapi.ts (this layer names no feature)
    required: ['schemas', 'totalResults', 'Resources'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'] },
      totalResults: { type: 'integer', example: 2 },
      startIndex: { type: 'integer', example: 1 },
      itemsPerPage: { type: 'integer', example: 2 },
      Resources: { type: 'array', items: { type: 'object', additionalProperties: true } },
    },
  },
  ScimDiscoveryDocument: {
    type: 'object',
    description: 'A ServiceProviderConfig, ResourceType or Schema document (RFC 7643 §5–7).',
    // example: the served ServiceProviderConfig, filled in by src/openapi.ts
    required: ['schemas'],
    additionalProperties: true,
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'] },
      id: str('User'),
      meta: { type: 'object', additionalProperties: true },
    },
  },
} satisfies Record<string, SchemaObject>;

export type SchemaName = keyof typeof SCHEMAS;

export const ref = (name: SchemaName): SchemaObject => ({ $ref: `#/components/schemas/${name}` }) as SchemaObject;
