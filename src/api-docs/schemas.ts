import { allRequiredSchema, namedSchema, str } from './response-schema';

/**
 * The bodies every feature answers alike: the JSON error body (common/exception.filter.ts), the
 * SCIM error body and a bare success. Each feature's own bodies are declared beside its views.
 */
export const ErrorSchema = namedSchema('Error', {
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
});

export const ScimErrorSchema = namedSchema('ScimError', {
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
});

export const SuccessSchema = allRequiredSchema('Success', {
  type: 'object',
  properties: { success: { type: 'boolean', enum: [true], example: true } },
});
