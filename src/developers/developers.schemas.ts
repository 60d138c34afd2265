import { id, namedSchema, nullableTime, ref, str, time } from '../api-docs/response-schema';

export const DeveloperSchema = namedSchema('Developer', {
  type: 'object',
  required: ['id', 'email', 'name', 'created_at'],
  properties: { id, email: str('dev@example.com', { format: 'email' }), name: str('Grace Hopper'), created_at: time },
});

export const DeveloperLoginSchema = namedSchema('DeveloperLogin', {
  type: 'object',
  required: ['developer', 'csrf_token'],
  properties: {
    developer: ref(DeveloperSchema),
    csrf_token: str('q5Xo1b9v0mQ2Yk3Zr8w7tA', {
      description: 'Send it as X-CSRF-Token on every cookie-authenticated POST/PUT/PATCH/DELETE (also readable from the csrftoken cookie).',
    }),
  },
});

export const DeveloperTokenSchema = namedSchema('DeveloperToken', {
  type: 'object',
  required: ['id', 'label', 'expires_at', 'created_at'],
  properties: { id, label: str('CI pipeline'), expires_at: nullableTime, created_at: time },
});

export const DeveloperTokenCreatedSchema = namedSchema('DeveloperTokenCreated', {
  type: 'object',
  required: ['id', 'label', 'token', 'expires_at', 'created_at'],
  properties: {
    id,
    label: str('CI pipeline'),
    token: str('dat_R2x0bE9uZVRpbWVTZWNyZXRUb2tlbkV4YW1wbGU', { description: 'Shown once; send as `Authorization: Bearer …`.' }),
    expires_at: nullableTime,
    created_at: time,
  },
});
