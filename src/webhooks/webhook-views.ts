import type { WebhookDelivery } from './entities/webhook-delivery.entity';
import type { WebhookSubscription } from './entities/webhook-subscription.entity';
import { allRequiredSchema, id, namedSchema, nullableTime, ref, str, time, type ViewOf } from '../api-docs/response-schema';

export const WebhookSchema = allRequiredSchema('Webhook', {
  type: 'object',
  description: 'A webhook endpoint of a workspace (Standard Webhooks). Its secret is never shown again after creation or rotation.',
  properties: {
    id,
    workspace_id: id,
    url: str('https://hooks.example.com/idsvc', { format: 'uri' }),
    event_types: {
      type: 'array',
      items: { type: 'string' },
      example: ['scim_user_create', 'directory.user.deactivated'],
      description:
        'Audit catalog event types delivered ("*": every audit type), and directory event types, delivered as the event feed shows them.',
    },
    description: str('Provisioning sync'),
    is_active: {
      type: 'boolean',
      example: true,
      description: 'false: paused by PATCH, or disabled after failing for the whole retry window.',
    },
    disabled_reason: {
      type: 'string',
      nullable: true,
      example: null,
      description: 'Why the service disabled it (set with is_active=false after failing for WEBHOOK_RETRY_WINDOW_MS); null otherwise.',
    },
    created_at: time,
    updated_at: time,
  },
});

export const WebhookWithSecretSchema = namedSchema('WebhookWithSecret', {
  allOf: [
    ref(WebhookSchema),
    {
      type: 'object',
      required: ['secret'],
      properties: {
        secret: str('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', {
          description: "Shown in this answer only: verify each delivery's webhook-signature with it (stored encrypted).",
        }),
      },
    },
  ],
});

export const WebhookDeliverySchema = allRequiredSchema('WebhookDelivery', {
  type: 'object',
  properties: {
    id: { ...id, description: 'Also sent as the webhook-id header, the same on every attempt.' },
    webhook_id: id,
    event_id: { ...id, nullable: true, description: 'The audit event or directory event delivered; null for a webhook_test message.' },
    event_type: str('scim_user_create'),
    status: {
      type: 'string',
      enum: ['pending', 'succeeded', 'failed'],
      example: 'pending',
      description: 'pending: waiting for its (next) attempt; failed: the retry window ran out (retry it by hand).',
    },
    attempts: { type: 'integer', example: 0 },
    last_response_code: {
      type: 'integer',
      nullable: true,
      example: null,
      description: 'HTTP status of the last attempt; null if none answered.',
    },
    last_error: {
      type: 'string',
      nullable: true,
      example: null,
      description: 'Why the last attempt failed (status and start of the body, or the network error).',
    },
    next_attempt_at: { ...nullableTime, description: 'When a pending delivery is next tried; null otherwise.' },
    created_at: time,
    delivered_at: { ...nullableTime, example: null },
  },
});

export const toWebhookView = (s: WebhookSubscription): ViewOf<typeof WebhookSchema> => ({
  id: s.id,
  workspace_id: s.workspaceId,
  url: s.url,
  event_types: s.eventTypes,
  description: s.description,
  is_active: s.isActive,
  disabled_reason: s.disabledReason,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

export const toDeliveryView = (d: WebhookDelivery): ViewOf<typeof WebhookDeliverySchema> => ({
  id: d.id,
  webhook_id: d.subscriptionId,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempts: d.attempts,
  last_response_code: d.lastResponseCode,
  last_error: d.lastError,
  next_attempt_at: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
  created_at: d.createdAt.toISOString(),
  delivered_at: d.deliveredAt ? d.deliveredAt.toISOString() : null,
});
