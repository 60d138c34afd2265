import { allRequiredSchema, id, namedSchema, ref, str } from '../api-docs/response-schema';
import type { SsfStream } from './entities/ssf-stream.entity';
import { ACCOUNT_DISABLED, EVENTS_SUPPORTED, SESSION_REVOKED } from './ssf-events';

// Event type URIs; a receiver may request any string, and its request is shown back as it sent it.
const EVENTS = { type: 'array', items: { type: 'string' }, example: [ACCOUNT_DISABLED, SESSION_REVOKED] } as const;

export const SsfStreamConfigSchema = namedSchema('SsfStreamConfiguration', {
  type: 'object',
  description: 'A stream configuration (SSF 1.0 §8.1.1). The authorization header of a push delivery is never shown back.',
  required: ['stream_id', 'iss', 'aud', 'delivery', 'events_supported', 'events_requested', 'events_delivered'],
  properties: {
    stream_id: id,
    iss: str('https://id.example.com', { format: 'uri' }),
    aud: str('ssfr_5f0b6c1d2e3f4a5b6c7d8e9f0a1b2c3d', { description: "The receiver's client_id" }),
    delivery: {
      type: 'object',
      required: ['method'],
      properties: {
        method: { type: 'string', enum: ['urn:ietf:rfc:8935', 'urn:ietf:rfc:8936'], example: 'urn:ietf:rfc:8935' },
        endpoint_url: str('https://receiver.example.com/ssf/events', {
          description: "Push: the receiver's endpoint. Poll: the transmitter's poll URL for this stream.",
        }),
      },
    },
    events_supported: { ...EVENTS, example: [...EVENTS_SUPPORTED] },
    events_requested: EVENTS,
    events_delivered: EVENTS,
    description: { type: 'string', example: 'Revoke Slack access' },
    min_verification_interval: { type: 'integer', example: 0 },
  },
});

/** GET of the configuration: one stream with stream_id, the array of the receiver's streams without (SSF 1.0 §8.1.1.2). */
export const SsfStreamReadSchema = namedSchema('SsfStreamConfigurationRead', {
  anyOf: [ref(SsfStreamConfigSchema), { type: 'array', items: ref(SsfStreamConfigSchema), example: [] }],
});

export const SsfStreamStatusSchema = namedSchema('SsfStreamStatus', {
  type: 'object',
  description: 'SSF 1.0 §8.1.2: enabled (delivering), paused (events held, delivered on resume), disabled (events not held).',
  required: ['stream_id', 'status'],
  properties: {
    stream_id: id,
    status: { type: 'string', enum: ['enabled', 'paused', 'disabled'], example: 'enabled' },
    reason: { type: 'string', example: 'Maintenance window' },
  },
});

export const SsfPollResponseSchema = allRequiredSchema('SsfPollResponse', {
  type: 'object',
  description: 'RFC 8936 §2.5: the SETs by jti, and whether more are waiting.',
  properties: {
    sets: {
      type: 'object',
      additionalProperties: { type: 'string', description: 'A SET (compact JWS, typ secevent+jwt)' },
      example: {
        '4d3559ec67504aaba65d40b0363faad8': 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEiLCJ0eXAiOiJzZWNldmVudCtqd3QifQ.eyJpc3MiOi4uLn0.c2ln',
      },
    },
    moreAvailable: { type: 'boolean', example: false },
  },
});

export const SsfConfigurationSchema = namedSchema('SsfConfiguration', {
  type: 'object',
  description: 'Transmitter configuration metadata (SSF 1.0 §7.1).',
  required: ['spec_version', 'issuer', 'jwks_uri', 'delivery_methods_supported', 'configuration_endpoint'],
  properties: {
    spec_version: str('1_0'),
    issuer: str('https://id.example.com', { format: 'uri' }),
    jwks_uri: str('https://id.example.com/oauth/jwks', { format: 'uri' }),
    delivery_methods_supported: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:rfc:8935', 'urn:ietf:rfc:8936'] },
    configuration_endpoint: str('https://id.example.com/ssf/streams', { format: 'uri' }),
    status_endpoint: str('https://id.example.com/ssf/status', { format: 'uri' }),
    add_subject_endpoint: str('https://id.example.com/ssf/subjects/add', { format: 'uri' }),
    remove_subject_endpoint: str('https://id.example.com/ssf/subjects/remove', { format: 'uri' }),
    verification_endpoint: str('https://id.example.com/ssf/verify', { format: 'uri' }),
    authorization_schemes: {
      type: 'array',
      items: { type: 'object', properties: { spec_urn: { type: 'string' } } },
      example: [{ spec_urn: 'urn:ietf:rfc:6749' }],
    },
    default_subjects: { type: 'string', enum: ['ALL', 'NONE'], example: 'NONE' },
  },
});

export function toStreamConfig(stream: SsfStream, issuer: string, audience: string, pollUrl: string) {
  const supported: readonly string[] = EVENTS_SUPPORTED;
  return {
    stream_id: stream.id,
    iss: issuer,
    aud: audience,
    delivery: { method: stream.deliveryMethod, endpoint_url: stream.endpointUrl ?? pollUrl },
    events_supported: [...EVENTS_SUPPORTED],
    events_requested: stream.eventsRequested,
    events_delivered: stream.eventsRequested.filter((e) => supported.includes(e)),
    ...(stream.description !== null ? { description: stream.description } : {}),
    min_verification_interval: 0,
  };
}

export function toStatus(stream: SsfStream) {
  return { stream_id: stream.id, status: stream.status, ...(stream.statusReason ? { reason: stream.statusReason } : {}) };
}
