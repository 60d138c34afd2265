import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Counter, Histogram, register } from 'prom-client';
import { SecretBox } from '../common/crypto/secret-box';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { JobsService } from '../jobs/jobs.service';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookSubscription } from './entities/webhook-subscription.entity';
import { postForOutcome } from '../common/safe-http';
import { webhookHeaders } from './signature';
import { WEBHOOK_DELIVERY_QUEUE, WEBHOOK_JOB_ATTEMPTS } from './webhook-queue';
import { WebhooksRepository } from './webhooks.repository';

const attemptsTotal =
  (register.getSingleMetric('webhook_delivery_attempts_total') as Counter | undefined) ??
  new Counter({ name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'] });
const lagSeconds =
  (register.getSingleMetric('webhook_delivery_lag_seconds') as Histogram | undefined) ??
  new Histogram({
    name: 'webhook_delivery_lag_seconds',
    help: 'From the audit event to its successful delivery',
    buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600],
  });

/**
 * Sends one delivery attempt (a job of WEBHOOK_DELIVERY_QUEUE). A 2xx answer marks it
 * succeeded; anything else schedules the next attempt as a new job after an exponential
 * backoff with jitter, until the retry window (WEBHOOK_RETRY_WINDOW_MS, 24 h) has passed since
 * the delivery was created, or since the endpoint started failing when that is later. An endpoint
 * failing for the whole window is disabled, and that is audited. While an endpoint fails, its other deliveries wait for the next probe instead of
 * each spending a timeout on it.
 *
 * A directory event's delivery settled (acknowledged, given up) queues the next pending delivery
 * of the same user or group, in the same transaction: per resource, one in flight, in feed order
 * (decision 0541).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  /** Endpoint id → when it may be tried again (this instance's view; a restart simply probes once). */
  private readonly backingOff = new Map<string, number>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly webhooks: WebhooksRepository,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {}

  onModuleInit(): void {
    this.jobs.registerHandler(WEBHOOK_DELIVERY_QUEUE, (payload) => this.deliver(String(payload.delivery_id)));
  }

  async deliver(deliveryId: string): Promise<void> {
    const delivery = await this.webhooks.findDelivery(null, deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    const webhook = await this.webhooks.findSubscription(null, delivery.subscriptionId);
    if (!webhook) return;
    if (!webhook.isActive && delivery.eventId !== null) {
      await this.uow.run(async (tx) => {
        await this.holdTheLine(tx, delivery);
        await this.webhooks.recordAttempt(tx, delivery.workspaceId, delivery.id, {
          status: 'failed',
          responseCode: null,
          error: 'endpoint disabled',
          nextAttemptAt: null,
        });
        await this.queueNextInLine(tx, delivery);
      });
      return;
    }
    const now = Date.now();
    const waitUntil = this.backingOff.get(webhook.id) ?? 0;
    if (waitUntil > now && delivery.eventId !== null) return this.postpone(delivery, waitUntil + Math.floor(Math.random() * 250));

    const body = JSON.stringify(delivery.payload);
    const headers = webhookHeaders(this.box.decrypt(webhook.secretEncrypted), delivery.id, Math.floor(now / 1000), body);
    const { status: responseCode, error } = await postForOutcome(
      webhook.url,
      body,
      headers,
      { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS, timeoutMs: this.config.WEBHOOK_TIMEOUT_MS },
      200,
    );
    if (error === null) return this.succeeded(delivery, webhook, responseCode!);
    return this.failed(delivery, webhook, responseCode, error, now);
  }

  private async succeeded(delivery: WebhookDelivery, webhook: WebhookSubscription, responseCode: number): Promise<void> {
    this.backingOff.delete(webhook.id);
    await this.uow.run(async (tx) => {
      await this.holdTheLine(tx, delivery);
      await this.webhooks.recordAttempt(tx, delivery.workspaceId, delivery.id, {
        status: 'succeeded',
        responseCode,
        error: null,
        nextAttemptAt: null,
      });
      if (webhook.failingSince) await this.webhooks.markHealthy(tx, webhook.workspaceId, webhook.id);
      await this.queueNextInLine(tx, delivery);
    });
    attemptsTotal.inc({ outcome: 'succeeded' });
    const eventTime = Date.parse(String(delivery.payload.occurred_at ?? delivery.payload.timestamp));
    if (!Number.isNaN(eventTime)) lagSeconds.observe((Date.now() - eventTime) / 1000);
  }

  private async failed(
    delivery: WebhookDelivery,
    webhook: WebhookSubscription,
    responseCode: number | null,
    error: string,
    now: number,
  ): Promise<void> {
    const attempt = delivery.attempts + 1;
    const delay = this.backoff(attempt);
    this.backingOff.set(webhook.id, now + delay);
    const window = this.config.WEBHOOK_RETRY_WINDOW_MS;
    const final = await this.uow.run(async (tx, events) => {
      await this.holdTheLine(tx, delivery);
      // A test message says nothing about the endpoint's health.
      const failingSince =
        delivery.eventId === null ? null : await this.webhooks.markFailing(tx, webhook.workspaceId, webhook.id, new Date(now));
      // The window runs from the delivery's creation or, when later, from the endpoint's first failure: a delivery
      // that gives up has then failed for the whole window, and so has the endpoint, which is disabled with it
      // (measured from creation alone, the wait for the first attempt could end the delivery just short of that).
      const windowStart = Math.max(delivery.createdAt.getTime(), failingSince?.getTime() ?? 0);
      const givesUp = now + delay - windowStart > window;
      const nextAttemptAt = givesUp ? null : new Date(now + delay);
      await this.webhooks.recordAttempt(tx, delivery.workspaceId, delivery.id, {
        status: givesUp ? 'failed' : 'pending',
        responseCode,
        error,
        nextAttemptAt,
      });
      if (nextAttemptAt) {
        await this.jobs.enqueue(
          tx,
          WEBHOOK_DELIVERY_QUEUE,
          { delivery_id: delivery.id },
          { runAt: nextAttemptAt, maxAttempts: WEBHOOK_JOB_ATTEMPTS },
        );
      } else {
        await this.queueNextInLine(tx, delivery);
      }
      // Failing for the whole window by the time its next retry would come: the endpoint is dead.
      if (failingSince && webhook.isActive && now + delay - failingSince.getTime() > window) {
        const reason = `failing since ${failingSince.toISOString()}: ${error.slice(0, 200)}`;
        await this.webhooks.disable(tx, webhook.workspaceId, webhook.id, reason);
        events.emit('webhook_disable', {
          workspaceId: webhook.workspaceId,
          actor: { type: 'system', id: null },
          target: { type: 'webhook', id: webhook.id },
          metadata: { url: webhook.url, failing_since: failingSince.toISOString(), last_error: error.slice(0, 200) },
        });
      }
      return givesUp;
    });
    attemptsTotal.inc({ outcome: final ? 'gave_up' : 'retry' });
    this.logger.warn(`webhook delivery ${delivery.id} attempt ${attempt} failed${final ? ' (giving up)' : ''}: ${error}`);
  }

  /**
   * A directory event's delivery takes its endpoint's row lock first, as the fan-out does while it
   * decides which new deliveries are first in line: without it, a fan-out could see this delivery
   * still pending (and queue nothing after it) while this transaction finds nothing after it yet.
   */
  private async holdTheLine(tx: Tx, delivery: WebhookDelivery): Promise<void> {
    if (delivery.resourceId) await this.webhooks.lockEndpoint(tx, delivery.workspaceId, delivery.subscriptionId);
  }

  /**
   * The delivery is settled: the next pending one of its resource, if this one held it back (it
   * comes after), gets its job. One that comes before was sent again by hand and has its own.
   */
  private async queueNextInLine(tx: Tx, delivery: WebhookDelivery): Promise<void> {
    if (!delivery.resourceId || delivery.seq === null) return;
    const next = await this.webhooks.nextInLine(tx, delivery.subscriptionId, delivery.resourceId);
    if (next && next.seq > Number(delivery.seq)) {
      await this.jobs.enqueue(tx, WEBHOOK_DELIVERY_QUEUE, { delivery_id: next.id }, { maxAttempts: WEBHOOK_JOB_ATTEMPTS });
    }
  }

  /** Not tried now: the endpoint is backing off. The next job comes at its next probe. */
  private async postpone(delivery: WebhookDelivery, at: number): Promise<void> {
    const runAt = new Date(at);
    await this.uow.run(async (tx) => {
      await this.webhooks.reschedule(tx, delivery.workspaceId, delivery.id, runAt);
      await this.jobs.enqueue(tx, WEBHOOK_DELIVERY_QUEUE, { delivery_id: delivery.id }, { runAt, maxAttempts: WEBHOOK_JOB_ATTEMPTS });
    });
  }

  /** Exponential (base · 2^(attempt-1), capped) with jitter: between half and all of it. */
  private backoff(attempt: number): number {
    const exp = Math.min(this.config.WEBHOOK_RETRY_BASE_MS * 2 ** Math.min(attempt - 1, 30), this.config.WEBHOOK_RETRY_MAX_DELAY_MS);
    return Math.round(exp / 2 + Math.random() * (exp / 2));
  }
}
