import { id, namedSchema, str, time } from '../api-docs/response-schema';
import type { SsfReceiver } from './entities/ssf-receiver.entity';
import type { SsfStream } from './entities/ssf-stream.entity';
import type { DeliverySummary } from './ssf-streams.repository';

const STREAM_SUMMARY = {
  type: 'object',
  nullable: true,
  description: "The receiver's stream, once it created one (SSF 1.0 §8.1.1); null before.",
  required: ['stream_id', 'status', 'delivery_method', 'events_requested', 'sets', 'last_delivered_at', 'last_error'],
  properties: {
    stream_id: id,
    status: { type: 'string', enum: ['enabled', 'paused', 'disabled'], example: 'enabled' },
    status_reason: { type: 'string', nullable: true, example: null },
    delivery_method: { type: 'string', example: 'urn:ietf:rfc:8935' },
    endpoint_url: { type: 'string', nullable: true, example: 'https://receiver.example.com/ssf/events' },
    events_requested: {
      type: 'array',
      items: { type: 'string' },
      example: ['https://schemas.openid.net/secevent/risc/event-type/account-disabled'],
    },
    sets: {
      type: 'object',
      description:
        'How many SETs the stream holds by state: pending (not delivered or not acknowledged yet), delivered, acknowledged, failed',
      additionalProperties: { type: 'integer' },
      example: { pending: 0, delivered: 12 },
    },
    last_delivered_at: {
      ...time,
      nullable: true,
      description: 'When a SET of the stream was last delivered (a push answered 2xx, or a poll acknowledging it); null before the first',
    },
    last_error: {
      type: 'string',
      nullable: true,
      example: null,
      description:
        'The error of the newest SET still pending after a failed push (the receiver down or refusing now), e.g. "HTTP 503: …"; null when none waits',
    },
  },
} as const;

/** Who the receiver is, first in each of its views. */
const RECEIVER_NAMED = {
  id,
  workspace_id: id,
  name: str('Slack access revocation'),
  client_id: str('ssfr_5f0b6c1d2e3f4a5b6c7d8e9f0a1b2c3d'),
} as const;
const DEFAULT_SUBJECTS = { type: 'string', enum: ['NONE', 'ALL'], example: 'NONE' } as const;

export const SsfReceiverSchema = namedSchema('SsfReceiver', {
  type: 'object',
  description: 'A Shared Signals receiver of a workspace: an OAuth client (scope ssf) that manages one event stream.',
  required: ['id', 'workspace_id', 'name', 'client_id', 'default_subjects', 'created_at', 'stream'],
  properties: { ...RECEIVER_NAMED, default_subjects: DEFAULT_SUBJECTS, created_at: time, stream: STREAM_SUMMARY },
});

export const SsfReceiverCreatedSchema = namedSchema('SsfReceiverCreated', {
  type: 'object',
  description: 'The receiver and its client secret, shown this once (stored as SHA-256).',
  required: ['id', 'workspace_id', 'name', 'client_id', 'client_secret', 'default_subjects', 'created_at'],
  properties: {
    ...RECEIVER_NAMED,
    client_secret: str('ssfs_Qm9yZWFsaXMgc2VjcmV0IHNob3duIG9uY2UgYW5kIG5ldmVyIGFnYWluLg', {
      description: 'For POST /oauth/token (client_secret_basic or client_secret_post), grant_type=client_credentials&scope=ssf',
    }),
    default_subjects: DEFAULT_SUBJECTS,
    created_at: time,
  },
});

export function toReceiverView(receiver: SsfReceiver, stream: SsfStream | undefined, delivery: DeliverySummary | null) {
  return {
    id: receiver.id,
    workspace_id: receiver.workspaceId,
    name: receiver.name,
    client_id: receiver.clientId,
    default_subjects: receiver.defaultSubjects,
    created_at: receiver.createdAt.toISOString(),
    stream: stream
      ? {
          stream_id: stream.id,
          status: stream.status,
          status_reason: stream.statusReason,
          delivery_method: stream.deliveryMethod,
          endpoint_url: stream.endpointUrl,
          events_requested: stream.eventsRequested,
          sets: delivery?.sets ?? {},
          last_delivered_at: delivery?.lastDeliveredAt?.toISOString() ?? null,
          last_error: delivery?.lastError ?? null,
        }
      : null,
  };
}
