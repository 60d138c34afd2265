import { allRequiredSchema, id, nextCursor, pageSchema, ref, str, time } from '../api-docs/response-schema';

export const AuditEventSchema = allRequiredSchema('AuditEvent', {
  type: 'object',
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
});

export const AuditPageSchema = pageSchema('AuditPage', AuditEventSchema, {
  ...nextCursor('string', '2026-11-24T12:00:00.123456Z', 'Pass as `cursor` to read older events; null at the end.'),
  limit: { type: 'integer', example: 50 },
});

export const AuditVerifyResultSchema = allRequiredSchema('AuditVerifyResult', {
  type: 'object',
  description: 'What GET /developer/audit/verify/ found: the links and checkpoints that check out, and the first break, if any.',
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
});

export const AuditCheckpointSchema = allRequiredSchema('AuditCheckpoint', {
  type: 'object',
  description: 'A signed chain head: an Ed25519 signature over its workspace_id, seq, event_id, hash and signed_at (docs/audit.md).',
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
});

export const AuditCheckpointPageSchema = pageSchema(
  'AuditCheckpointPage',
  AuditCheckpointSchema,
  nextCursor('integer', 1234, 'A seq: pass it as `cursor` for the next page; null at the end.'),
);

export const AuditPublicKeySchema = allRequiredSchema('AuditPublicKey', {
  type: 'object',
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
});

export const AuditPublicKeysSchema = allRequiredSchema('AuditPublicKeys', {
  type: 'object',
  properties: { keys: { type: 'array', items: ref(AuditPublicKeySchema) } },
});
