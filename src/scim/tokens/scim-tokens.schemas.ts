import { allRequiredSchema, id, namedSchema, nullableTime, ref, str, time } from '../../api-docs/response-schema';

export const ScimTokenSchema = allRequiredSchema('ScimToken', {
  type: 'object',
  properties: {
    id,
    workspace_id: id,
    label: str('Okta'),
    expires_at: nullableTime,
    is_active: { type: 'boolean', example: true },
    revoked_at: nullableTime,
    created_at: time,
  },
});

export const ScimTokenCreatedSchema = namedSchema('ScimTokenCreated', {
  allOf: [
    ref(ScimTokenSchema),
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
});

export const ScimTokenRevokedSchema = allRequiredSchema('ScimTokenRevoked', {
  type: 'object',
  properties: { id, is_active: { type: 'boolean', enum: [false], example: false }, revoked_at: time },
});
