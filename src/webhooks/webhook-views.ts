import type { WebhookDelivery } from './entities/webhook-delivery.entity';
import type { WebhookSubscription } from './entities/webhook-subscription.entity';

export const toWebhookView = (s: WebhookSubscription) => ({
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

export const toDeliveryView = (d: WebhookDelivery) => ({
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
