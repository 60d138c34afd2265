import { id, namedSchema, nullableTime, ref, str, time } from '../../api-docs/response-schema';

export const ScimClientSecretSchema = namedSchema('ScimClientSecret', {
  type: 'object',
  required: ['id', 'expires_at', 'created_at', 'revoked_at'],
  properties: { id, expires_at: time, created_at: time, revoked_at: nullableTime },
});

export const ScimClientSecretCreatedSchema = namedSchema('ScimClientSecretCreated', {
  type: 'object',
  required: ['id', 'value', 'expires_at'],
  properties: {
    id,
    value: str('scs_Qm9uZ1x0cmVhbGx5YXNlY3JldGJ1dGFuZXhhbXBsZQ', {
      description: 'Shown once: give it to the identity provider as its client secret.',
    }),
    expires_at: time,
  },
});

export const ScimClientSchema = namedSchema('ScimClient', {
  type: 'object',
  required: ['id', 'client_id', 'label', 'workspace_id', 'created_at', 'revoked_at', 'secrets', 'keys', 'federation'],
  properties: {
    id,
    client_id: str('scimc_4f0d1e2a9b8c7d6e5f4a3b2c1d0e9f8a'),
    label: str('Entra ID provisioning'),
    workspace_id: id,
    created_at: time,
    revoked_at: nullableTime,
    secrets: { type: 'array', items: ref(ScimClientSecretSchema) },
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
});

export const ScimClientCreatedSchema = namedSchema('ScimClientCreated', {
  type: 'object',
  required: ['id', 'client_id', 'label', 'workspace_id', 'created_at', 'secret'],
  properties: {
    id,
    client_id: str('scimc_4f0d1e2a9b8c7d6e5f4a3b2c1d0e9f8a'),
    label: str('Entra ID provisioning'),
    workspace_id: id,
    created_at: time,
    secret: ref(ScimClientSecretCreatedSchema),
  },
});
