import { Inject, Injectable } from '@nestjs/common';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { SecretBox } from '../common/crypto/secret-box';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { APP_CONFIG, AppConfig } from '../config/config';
import { AuditChainRepository } from '../audit/audit-chain.repository';
import { EmittedEvents, Tx, UnitOfWork } from '../database/unit-of-work';
import { DirectoryEventsRepository } from '../directory-events/directory-events.repository';
import { DIRECTORY_EVENT_TYPES, byDeveloper } from '../events/domain-events';
import { JobsService } from '../jobs/jobs.service';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import { WebhookSubscription } from './entities/webhook-subscription.entity';
import { unsafeTargetReason } from '../common/safe-http';

/** What a developer trying a receiver on their own machine needs to read. */
const PRIVATE_TARGETS_HINT =
  'a receiver on this machine or a private network is allowed in development (NODE_ENV=development) or with WEBHOOK_ALLOW_PRIVATE_TARGETS=true';

/** True when the URL is refused for its host (loopback, private…) and WEBHOOK_ALLOW_PRIVATE_TARGETS would accept it. */
async function isPrivateReceiver(url: string): Promise<boolean> {
  if ((await unsafeTargetReason(url, true)) !== null) return false;
  return (await unsafeTargetReason(url.replace(/^http:/i, 'https:'), false)) !== null;
}
import { generateWebhookSecret } from './signature';
import { WEBHOOK_DELIVERY_QUEUE, WEBHOOK_JOB_ATTEMPTS } from './webhook-queue';
import { toDeliveryView, toWebhookView } from './webhook-views';
import { WebhooksRepository } from './webhooks.repository';
import { COMMON_ERRORS, notFound, findOr404 } from '../common/common.errors';

const subscribesToDirectory = (eventTypes: string[]) => eventTypes.some((t) => (DIRECTORY_EVENT_TYPES as readonly string[]).includes(t));

type WebhookEvent = 'webhook_create' | 'webhook_update' | 'webhook_delete' | 'webhook_secret_rotate';

/** The type of the synthetic message POST /developer/webhooks/{id}/test/ sends (not an audit event). */
export const TEST_EVENT_TYPE = 'webhook_test';

/**
 * Webhook endpoints of a workspace (Standard Webhooks). Members manage them; every change is
 * audited; secrets are shown once and kept encrypted (they sign every delivery).
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly webhooks: WebhooksRepository,
    private readonly chain: AuditChainRepository,
    private readonly directoryEvents: DirectoryEventsRepository,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {}

  /** The caller's membership is settled before the url is resolved (WorkspaceMemberGuard): no DNS lookups for strangers. */
  async create({ workspaceId, developer: p }: WorkspaceScope, dto: CreateWebhookDto, request: RequestMeta) {
    await this.assertSafe(dto.url);
    return this.uow.run(async (tx, events) => {
      const secret = generateWebhookSecret();
      // From the chain's and the feed's heads on: events sealed from now on are delivered.
      const position = await this.chain.headSeq(tx, workspaceId);
      const webhook = await this.webhooks.insert(tx, workspaceId, {
        url: dto.url,
        eventTypes: [...new Set(dto.event_types)],
        description: dto.description ?? '',
        secretEncrypted: this.box.encrypt(secret),
        position,
        directoryPosition: await this.directoryEvents.headSeq(tx, workspaceId),
      });
      this.record(events, 'webhook_create', p, webhook, request, { url: webhook.url, event_types: webhook.eventTypes });
      return { ...toWebhookView(webhook), secret };
    });
  }

  async list({ workspaceId }: WorkspaceScope) {
    return (await this.webhooks.listForWorkspace(workspaceId)).map(toWebhookView);
  }

  async get(p: DeveloperPrincipal, id: string) {
    return toWebhookView(await this.load(null, p, id));
  }

  async update(p: DeveloperPrincipal, id: string, dto: UpdateWebhookDto, request: RequestMeta) {
    await this.load(null, p, id);
    if (dto.url !== undefined) await this.assertSafe(dto.url);
    return this.uow.run(async (tx, events) => {
      const webhook = await this.load(tx, p, id);
      const eventTypes = dto.event_types && [...new Set(dto.event_types)];
      // First directory subscription of this endpoint: it starts at the feed's head, as a new endpoint does.
      const startsDirectory = eventTypes && !subscribesToDirectory(webhook.eventTypes) && subscribesToDirectory(eventTypes);
      const updated = await this.webhooks.update(tx, webhook.workspaceId, id, {
        url: dto.url,
        eventTypes,
        description: dto.description,
        isActive: dto.is_active,
        directoryPosition: startsDirectory ? await this.directoryEvents.headSeq(tx, webhook.workspaceId) : undefined,
      });
      const fields = Object.keys(dto).filter((k) => dto[k as keyof UpdateWebhookDto] !== undefined);
      this.record(events, 'webhook_update', p, updated, request, { fields });
      return toWebhookView(updated);
    });
  }

  async remove(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    await this.uow.run(async (tx, events) => {
      const webhook = await this.load(tx, p, id);
      await this.webhooks.delete(tx, webhook.workspaceId, id);
      this.record(events, 'webhook_delete', p, webhook, request, { url: webhook.url });
    });
  }

  /** A new secret, effective for the next attempt of every delivery; the old one stops signing at once. */
  async rotateSecret(p: DeveloperPrincipal, id: string, request: RequestMeta) {
    return this.uow.run(async (tx, events) => {
      const webhook = await this.load(tx, p, id);
      const secret = generateWebhookSecret();
      const updated = await this.webhooks.update(tx, webhook.workspaceId, id, { secretEncrypted: this.box.encrypt(secret) });
      this.record(events, 'webhook_secret_rotate', p, updated, request);
      return { ...toWebhookView(updated), secret };
    });
  }

  /** Queues a synthetic webhook_test message to the endpoint (delivered like any other, even when disabled). */
  async sendTest(p: DeveloperPrincipal, id: string) {
    const delivery = await this.uow.run(async (tx) => {
      const webhook = await this.load(tx, p, id);
      const payload = {
        type: TEST_EVENT_TYPE,
        timestamp: new Date().toISOString(),
        data: { webhook_id: webhook.id, workspace_id: webhook.workspaceId, message: 'Test message from the identity service' },
      };
      const [deliveryId] = await this.webhooks.insertDeliveries(tx, [
        { subscriptionId: webhook.id, workspaceId: webhook.workspaceId, eventId: null, eventType: TEST_EVENT_TYPE, payload },
      ]);
      await this.jobs.enqueue(tx, WEBHOOK_DELIVERY_QUEUE, { delivery_id: deliveryId }, { maxAttempts: WEBHOOK_JOB_ATTEMPTS });
      return (await this.webhooks.findDelivery(tx, deliveryId))!;
    });
    return toDeliveryView(delivery);
  }

  async deliveries(p: DeveloperPrincipal, id: string, limit: number) {
    const webhook = await this.load(null, p, id);
    return (await this.webhooks.deliveries(webhook.workspaceId, webhook.id, limit)).map(toDeliveryView);
  }

  /** Sends a delivery again now (whatever its status): one more attempt, retried within the retry window. */
  async retry(p: DeveloperPrincipal, deliveryId: string) {
    if (!isUuid(deliveryId)) throw notFound('Webhook delivery');
    const delivery = await this.uow.run(async (tx) => {
      const found = await this.webhooks.findDeliveryVisibleTo(tx, p.developerId, deliveryId);
      if (!found) throw notFound('Webhook delivery');
      await this.webhooks.requeue(tx, found.workspaceId, found.id);
      await this.jobs.enqueue(tx, WEBHOOK_DELIVERY_QUEUE, { delivery_id: found.id }, { maxAttempts: WEBHOOK_JOB_ATTEMPTS });
      return (await this.webhooks.findDelivery(tx, found.id))!;
    });
    return toDeliveryView(delivery);
  }

  /** 400 validation_failed with `details.url` a list of problems, as for every other field. */
  private async assertSafe(url: string): Promise<void> {
    const allowPrivate = this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    const reason = await unsafeTargetReason(url, allowPrivate);
    if (!reason) return;
    const problem = !allowPrivate && (await isPrivateReceiver(url)) ? `${reason}; ${PRIVATE_TARGETS_HINT}` : reason;
    throw new DomainError(COMMON_ERRORS.validation_failed, `url: ${problem}`, { details: { url: [problem] } });
  }

  /** The endpoint, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  private load(tx: Tx | null, p: DeveloperPrincipal, id: string): Promise<WebhookSubscription> {
    return findOr404('Webhook', id, (webhookId) => this.webhooks.findVisibleTo(tx, p.developerId, webhookId));
  }

  private record(
    events: EmittedEvents,
    name: WebhookEvent,
    p: DeveloperPrincipal,
    webhook: WebhookSubscription,
    request: RequestMeta,
    metadata: Record<string, unknown> = {},
  ): void {
    events.emit(name, {
      ...byDeveloper(p, webhook.workspaceId, { type: 'webhook', id: webhook.id }, request),
      metadata,
    });
  }
}
