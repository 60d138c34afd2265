import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { type Batch, CoalescedLoop } from '../common/coalesced-loop';
import { OnEvent } from '@nestjs/event-emitter';
import { AuditChainRepository } from '../audit/audit-chain.repository';
import { AUDIT_SEALED } from '../audit/audit-sealer';
import { eventContent } from '../audit/chain/chain';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { DIRECTORY_EVENTS_SEALED } from '../directory-events/directory-event-sealer';
import { DirectoryEventsRepository } from '../directory-events/directory-events.repository';
import { toEventView } from '../directory-events/directory-events.service';
import { DIRECTORY_EVENT_TYPES } from '../events/domain-events';
import { JobsService } from '../jobs/jobs.service';
import type { WebhookSubscription } from './entities/webhook-subscription.entity';
import { WEBHOOK_DELIVERY_QUEUE, WEBHOOK_JOB_ATTEMPTS } from './webhook-queue';
import { NewDelivery, WebhooksRepository } from './webhooks.repository';

const BATCH = 500;

/**
 * The fan-out (decision 0711): the audit log, sealed into per-workspace chains, is the outbox.
 * Each endpoint keeps its position in its workspace's chain; this worker reads the links after
 * it, creates one delivery (and its job) per event of a subscribed type, and moves the position
 * forward, all in one transaction with the endpoint's row locked. A crash before commit leaves
 * the position where it was, so the same events are fanned out again; the unique
 * (endpoint, event) key keeps that from adding a second delivery.
 *
 * Directory events (decision 0540) are fanned out the same way from the workspace's directory
 * event feed, with a second position; a delivery's job is queued only when it is first in line
 * for its user or group (decision 0541), the others when the one before them is settled.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly loop = new CoalescedLoop(() => this.dispatchAll(), this.logger, 'webhook fan-out');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly webhooks: WebhooksRepository,
    private readonly chain: AuditChainRepository,
    private readonly directoryEvents: DirectoryEventsRepository,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER_ENABLED) this.loop.start(this.config.WEBHOOK_DISPATCH_INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** The sealer moved some chains: fan out now rather than at the next tick. */
  @OnEvent(AUDIT_SEALED)
  @OnEvent(DIRECTORY_EVENTS_SEALED)
  onSealed(): void {
    if (this.config.JOBS_WORKER_ENABLED) this.loop.wake();
  }

  /** Fans out everything sealed so far; answers the deliveries created. */
  async dispatchAll(): Promise<number> {
    return this.loop.drain(await this.webhooks.behind(DIRECTORY_EVENT_TYPES), (id) => this.fanOut(id));
  }

  /** One batch of the endpoint's audit links and one of its directory events, with the endpoint locked. */
  private fanOut(id: string): Promise<Batch> {
    return this.uow.run(async (tx) => {
      const webhook = await this.webhooks.lockActive(tx, id);
      if (!webhook) return { made: 0, more: false };
      const audit = await this.fanOutAudit(tx, webhook);
      const directory = await this.fanOutDirectory(tx, webhook);
      return { made: audit.made + directory.made, more: audit.more || directory.more };
    });
  }

  private async fanOutAudit(tx: Tx, webhook: WebhookSubscription): Promise<Batch> {
    const position = Number(webhook.position);
    const links = await this.chain.links(tx, webhook.workspaceId, position, Number.MAX_SAFE_INTEGER, BATCH);
    if (links.length === 0) return { made: 0, more: false };
    const all = webhook.eventTypes.includes('*');
    const deliveries: NewDelivery[] = [];
    for (const link of links) {
      if (!link.event || !(all || webhook.eventTypes.includes(link.event.event_type))) continue;
      deliveries.push({
        subscriptionId: webhook.id,
        workspaceId: webhook.workspaceId,
        eventId: link.event.id,
        eventType: link.event.event_type,
        payload: { type: link.event.event_type, timestamp: link.event.created_at, data: eventContent(link.event) },
      });
    }
    const created = await this.webhooks.insertDeliveries(tx, deliveries);
    await this.enqueue(tx, created);
    await this.webhooks.advance(tx, webhook.workspaceId, webhook.id, links[links.length - 1].seq);
    return { made: created.length, more: links.length === BATCH };
  }

  /** The body is the feed's event object; only the deliveries first in line for their resource get a job now. */
  private async fanOutDirectory(tx: Tx, webhook: WebhookSubscription): Promise<Batch> {
    const types = webhook.eventTypes.filter((t) => (DIRECTORY_EVENT_TYPES as readonly string[]).includes(t));
    if (types.length === 0) return { made: 0, more: false };
    const events = await this.directoryEvents.pageIn(tx, webhook.workspaceId, Number(webhook.directoryPosition), BATCH);
    if (events.length === 0) return { made: 0, more: false };
    const deliveries: NewDelivery[] = events
      .filter((event) => types.includes(event.type))
      .map((event) => ({
        subscriptionId: webhook.id,
        workspaceId: webhook.workspaceId,
        eventId: event.id,
        eventType: event.type,
        payload: { ...toEventView(event) },
        resourceId: event.resourceId,
        seq: event.seq,
      }));
    const created = await this.webhooks.insertDeliveries(tx, deliveries);
    await this.enqueue(tx, await this.webhooks.firstInLine(tx, webhook.id, created));
    await this.webhooks.advanceDirectory(tx, webhook.workspaceId, webhook.id, events[events.length - 1].seq);
    return { made: created.length, more: events.length === BATCH };
  }

  private async enqueue(tx: Tx, deliveryIds: string[]): Promise<void> {
    for (const deliveryId of deliveryIds) {
      await this.jobs.enqueue(tx, WEBHOOK_DELIVERY_QUEUE, { delivery_id: deliveryId }, { maxAttempts: WEBHOOK_JOB_ATTEMPTS });
    }
  }
}
