import { Doc, type ErrorSpec } from '../api-docs/decorators';
import { ActionRoute, BAD_QUERY, ListRoute, noSuch } from '../api-docs/routes';
import { Param, Query } from '@nestjs/common';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { CreateWebhookDto, DeliveriesQueryDto, UpdateWebhookDto } from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { WebhookDeliverySchema, WebhookSchema, WebhookWithSecretSchema } from './webhook-views';
import { WorkspaceResourceRoutes } from '../workspaces/workspace-resource-routes';

const NO_WEBHOOK = noSuch('webhook');
const BAD_URL = 'an event type is not in the catalog, or the url is not https: or resolves to a private, loopback or reserved address';
const BAD_NEW: ErrorSpec = [400, 'validation_failed', `A field is missing or breaks its rule, ${BAD_URL} (details names the field)`];
const BAD_CHANGE: ErrorSpec = [400, 'validation_failed', `A field breaks its rule, ${BAD_URL} (details names the field)`];
const TEST_DELIVERY = {
  id: '4c2e6a8b-0d1f-4e3a-8c5b-7d9f1a3c5e7b',
  webhook_id: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11',
  event_id: null,
  event_type: 'webhook_test',
  status: 'pending',
  attempts: 0,
  last_response_code: null,
  last_error: null,
  next_attempt_at: '2026-11-24T12:00:00.000Z',
  created_at: '2026-11-24T12:00:00.000Z',
  delivered_at: null,
};

@DeveloperApi('developer/webhooks', 'webhooks')
export class WebhooksController extends WorkspaceResourceRoutes({
  noun: 'webhook',
  schema: WebhookSchema,
  create: {
    doc: [
      'Create a webhook endpoint',
      'Subscribes an endpoint of yours to a workspace\'s audit events (catalog event types, or "*" for all): each event sealed from now on is POSTed to it, signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature), retried with backoff for WEBHOOK_RETRY_WINDOW_MS. The url must be https: and resolve to public addresses only. The answer carries the signing secret (whsec_…), shown this once. Audited as webhook_create. Members of the workspace only.',
    ],
    body: CreateWebhookDto,
    created: WebhookWithSecretSchema,
    answer: 'The endpoint, with its secret',
    errors: [BAD_NEW],
  },
  list: {
    doc: ['List webhook endpoints', 'The webhook endpoints of one workspace, without their secrets. Members of the workspace only.'],
    answer: 'The endpoints',
  },
  get: {
    doc: ['Show a webhook endpoint', 'Without its secret. Visible to members of its workspace only (404 to anyone else).'],
    answer: 'The endpoint',
  },
  update: {
    verb: 'PATCH',
    doc: [
      'Update a webhook endpoint',
      'Fields not sent are kept. is_active=false pauses deliveries; is_active=true turns an endpoint back on, including one the service disabled after it failed for the whole retry window (clears disabled_reason). A new url is checked like on creation. Audited as webhook_update.',
    ],
    body: UpdateWebhookDto,
    answer: 'The updated endpoint',
    errors: [BAD_CHANGE],
  },
  remove: {
    doc: [
      'Delete a webhook endpoint',
      'The endpoint and its deliveries are removed: nothing more is sent to it, pending deliveries included. Audited as webhook_delete.',
    ],
  },
}) {
  constructor(protected readonly resources: WebhooksService) {
    super();
  }

  @Doc(
    'Rotate a webhook secret',
    'Replaces the signing secret: the old one stops signing at once, and the next attempt of every delivery is signed with the new one. The answer carries the new secret, shown this once. Audited as webhook_secret_rotate.',
  )
  @ActionRoute(':id/rotate-secret', 200, WebhookWithSecretSchema, 'The endpoint, with its new secret', NO_WEBHOOK)
  rotateSecret(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.resources.rotateSecret(p, id, meta);
  }

  /** Queues a webhook_test message; answers its delivery (202). */
  @Doc(
    'Send a test message',
    'Queues a synthetic webhook_test message (not an audit event) to the endpoint, signed and retried like any other delivery, even when the endpoint is inactive. The request does not wait for it: follow the delivery in the deliveries list. Its failures do not count toward disabling the endpoint.',
  )
  @ActionRoute(':id/test', 202, WebhookDeliverySchema, { description: 'The queued delivery', example: TEST_DELIVERY }, NO_WEBHOOK)
  test(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.resources.sendTest(p, id);
  }

  @Doc(
    'List deliveries of a webhook endpoint',
    'The latest deliveries to the endpoint, newest first (limit, default 50, up to 100): status, attempts, the last answer or error, and when a pending one is tried next. Members of its workspace only.',
  )
  @ListRoute(':id/deliveries', WebhookDeliverySchema, 'The deliveries', BAD_QUERY, NO_WEBHOOK)
  async deliveries(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Query() query: DeliveriesQueryDto) {
    return { results: await this.resources.deliveries(p, id, query.limit ?? 50) };
  }
}

@DeveloperApi('developer/webhook-deliveries', 'webhooks')
export class WebhookDeliveriesController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Sends the delivery again now; answers it (202). */
  @Doc(
    'Retry a webhook delivery',
    'Sends a delivery again now, whatever its status (a failed one included): it goes back to pending for one more attempt, retried within the retry window, with the same webhook-id so the receiver can drop a duplicate. The request does not wait for it. Members of its workspace only.',
  )
  @ActionRoute(':id/retry', 202, WebhookDeliverySchema, 'The delivery, queued again', noSuch('webhook delivery'))
  retry(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.webhooks.retry(p, id);
  }
}
