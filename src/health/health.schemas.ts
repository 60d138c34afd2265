import { namedSchema } from '../api-docs/response-schema';

export const LivenessSchema = namedSchema('Liveness', {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } },
});
