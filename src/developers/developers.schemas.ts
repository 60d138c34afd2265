import { allRequiredSchema, id, nullableTime, ref, str, time } from '../api-docs/response-schema';

export const DeveloperSchema = allRequiredSchema('Developer', {
  type: 'object',
  properties: { id, email: str('dev@example.com', { format: 'email' }), name: str('Grace Hopper'), created_at: time },
});

export const DeveloperLoginSchema = allRequiredSchema('DeveloperLogin', {
  type: 'object',
  properties: {
    developer: ref(DeveloperSchema),
    csrf_token: str('q5Xo1b9v0mQ2Yk3Zr8w7tA', {
      description: 'Send it as X-CSRF-Token on every cookie-authenticated POST/PUT/PATCH/DELETE (also readable from the csrftoken cookie).',
    }),
  },
});

export const DeveloperTokenSchema = allRequiredSchema('DeveloperToken', {
  type: 'object',
  properties: { id, label: str('CI pipeline'), expires_at: nullableTime, created_at: time },
});

export const DeveloperTokenCreatedSchema = allRequiredSchema('DeveloperTokenCreated', {
  type: 'object',
  properties: {
    ...DeveloperTokenSchema.schema.properties,
    token: str('dat_R2x0bE9uZVRpbWVTZWNyZXRUb2tlbkV4YW1wbGU', { description: 'Shown once; send as `Authorization: Bearer …`.' }),
  },
});
