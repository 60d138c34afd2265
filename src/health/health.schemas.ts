import { allRequiredSchema } from '../api-docs/response-schema';

export const LivenessSchema = allRequiredSchema('Liveness', {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } },
});
