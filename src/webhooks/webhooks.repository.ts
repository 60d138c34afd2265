import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityColumns } from '../database/row-shape';
import { first, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { inCreationOrder, insertWorkspaceRow } from '../database/workspace-row';
import { findVisibleToMember } from '../workspaces/visible-to-member';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookSubscription } from './entities/webhook-subscription.entity';

/**
 * Active endpoints behind their workspace's audit chain head (the audit chain is their outbox), or
 * subscribed to directory types ($1) and behind their workspace's directory feed head.
 */
const BEHIND = statement(
  'webhooks.behind',
  `SELECT s.id FROM webhook_subscriptions s
        WHERE s.is_active
          AND (s.position < (SELECT COALESCE(max(c.seq), 0) FROM audit_chain c WHERE c.workspace_id = s.workspace_id)
               OR (s.event_types && $1::text[]
                   AND s.directory_position < (SELECT COALESCE(max(d.seq), 0) FROM directory_events d WHERE d.workspace_id = s.workspace_id)))`,
  entityColumns(WebhookSubscription, ['id']),
);

const INSERT_DELIVERIES = statement(
  'webhooks.insert-deliveries',
  `INSERT INTO webhook_deliveries (subscription_id, workspace_id, event_id, event_type, payload, resource_id, seq, next_attempt_at)
       SELECT s, w, e, t, p, r, q, now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::jsonb[], $6::uuid[], $7::bigint[]) AS d(s, w, e, t, p, r, q)
       ON CONFLICT (subscription_id, event_id) DO NOTHING RETURNING id`,
  entityColumns(WebhookDelivery, ['id']),
);

/**
 * Of the given deliveries, those first in line for their resource: no pending delivery of the
 * same endpoint and resource comes before them (decision 0541). Run under the endpoint's lock.
 */
const FIRST_IN_LINE = statement(
  'webhooks.first-in-line',
  `SELECT d.id FROM webhook_deliveries d
        WHERE d.subscription_id = $1 AND d.id = ANY($2::uuid[])
          AND (d.resource_id IS NULL OR NOT EXISTS (
                SELECT 1 FROM webhook_deliveries e
                 WHERE e.subscription_id = d.subscription_id AND e.resource_id = d.resource_id
                   AND e.status = 'pending' AND e.resource_id IS NOT NULL AND e.seq < d.seq))
        ORDER BY d.seq NULLS FIRST`,
  entityColumns(WebhookDelivery, ['id']),
);

/** The pending delivery of an endpoint's resource that comes first (lowest feed seq). */
const NEXT_IN_LINE = statement(
  'webhooks.next-in-line',
  `SELECT d.id, d.seq FROM webhook_deliveries d
        WHERE d.subscription_id = $1 AND d.resource_id = $2 AND d.status = 'pending' AND d.resource_id IS NOT NULL
        ORDER BY d.seq LIMIT 1`,
  entityColumns(WebhookDelivery, ['id', 'seq']),
);

/** Waits for the endpoint's row: the fan-out holds it while it decides who is first in line. */
const LOCK_ENDPOINT = statement(
  'webhooks.lock-endpoint',
  `SELECT s.id FROM webhook_subscriptions s WHERE s.workspace_id = $1 AND s.id = $2 FOR UPDATE`,
  entityColumns(WebhookSubscription, ['id']),
);

const MARK_FAILING = statement(
  'webhooks.mark-failing',
  `UPDATE webhook_subscriptions SET failing_since = COALESCE(failing_since, $3)
        WHERE workspace_id = $1 AND id = $2 RETURNING failing_since`,
  entityColumns(WebhookSubscription, ['failingSince']),
);

export interface NewSubscription {
  url: string;
  eventTypes: string[];
  description: string;
  secretEncrypted: string;
  position: number;
  directoryPosition: number;
}

/** A field left undefined keeps its value. */
export interface SubscriptionChange {
  url?: string;
  eventTypes?: string[];
  description?: string;
  isActive?: boolean;
  secretEncrypted?: string;
  directoryPosition?: number;
}

export interface NewDelivery {
  subscriptionId: string;
  workspaceId: string;
  eventId: string | null;
  eventType: string;
  payload: Record<string, unknown>;
  /** A directory event's user or group, and its feed seq: deliveries of one resource go out in seq order. */
  resourceId?: string;
  seq?: number;
}

/** webhook_subscriptions and webhook_deliveries. Tenant methods take the workspace first. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(tx: Tx, workspaceId: string, values: NewSubscription): Promise<WebhookSubscription> {
    return insertWorkspaceRow(tx, WebhookSubscription, {
      workspaceId,
      url: values.url,
      eventTypes: values.eventTypes,
      description: values.description,
      secretEncrypted: values.secretEncrypted,
      position: String(values.position),
      directoryPosition: String(values.directoryPosition),
    });
  }

  listForWorkspace(workspaceId: string): Promise<WebhookSubscription[]> {
    return inCreationOrder(this.dataSource.getRepository(WebhookSubscription), workspaceId);
  }

  /** The endpoint, if the developer is a member of its workspace (404 otherwise, never 403 across tenants). */
  findVisibleTo(tx: Tx | null, developerId: string, id: string): Promise<WebhookSubscription | null> {
    return findVisibleToMember(tx ?? this.dataSource.manager, WebhookSubscription, developerId, id);
  }

  async update(tx: Tx, workspaceId: string, id: string, change: SubscriptionChange): Promise<WebhookSubscription> {
    const repo = tx.getRepository(WebhookSubscription);
    await repo.update(
      { workspaceId, id },
      {
        ...(change.url !== undefined && { url: change.url }),
        ...(change.eventTypes !== undefined && { eventTypes: change.eventTypes }),
        ...(change.description !== undefined && { description: change.description }),
        ...(change.secretEncrypted !== undefined && { secretEncrypted: change.secretEncrypted }),
        ...(change.directoryPosition !== undefined && { directoryPosition: String(change.directoryPosition) }),
        // Re-enabling clears the failure streak that disabled it.
        ...(change.isActive !== undefined && { isActive: change.isActive, failingSince: null, disabledReason: null }),
        updatedAt: () => 'now()',
      },
    );
    return (await repo.findOneBy({ workspaceId, id }))!;
  }

  async delete(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx.getRepository(WebhookSubscription).delete({ workspaceId, id });
  }

  /** Active endpoints behind their workspace's chain head, or behind its directory feed head when subscribed to one of `directoryTypes`. */
  async behind(directoryTypes: readonly string[]): Promise<string[]> {
    return (await run(this.dataSource, BEHIND, [directoryTypes])).map((row) => row.id);
  }

  /** Locks an active endpoint for its fan-out (skipped when another instance holds it). */
  lockActive(tx: Tx, id: string): Promise<WebhookSubscription | null> {
    return tx
      .getRepository(WebhookSubscription)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('s.id = :id AND s.isActive', { id })
      .getOne();
  }

  async advance(tx: Tx, workspaceId: string, id: string, position: number): Promise<void> {
    await tx.getRepository(WebhookSubscription).update({ workspaceId, id }, { position: String(position) });
  }

  async advanceDirectory(tx: Tx, workspaceId: string, id: string, position: number): Promise<void> {
    await tx.getRepository(WebhookSubscription).update({ workspaceId, id }, { directoryPosition: String(position) });
  }

  /** Waits for the endpoint's row lock, to the end of the transaction (see FIRST_IN_LINE). */
  async lockEndpoint(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await run(tx, LOCK_ENDPOINT, [workspaceId, id]);
  }

  /** Of `deliveryIds` (of one endpoint), those no earlier pending delivery of their resource waits before. */
  async firstInLine(tx: Tx, subscriptionId: string, deliveryIds: string[]): Promise<string[]> {
    if (deliveryIds.length === 0) return [];
    return (await run(tx, FIRST_IN_LINE, [subscriptionId, deliveryIds])).map((row) => row.id);
  }

  /** The pending delivery of the endpoint's resource with the lowest seq, if any. */
  async nextInLine(tx: Tx, subscriptionId: string, resourceId: string): Promise<{ id: string; seq: number } | null> {
    const row = await first(tx, NEXT_IN_LINE, [subscriptionId, resourceId]);
    return row ? { id: row.id, seq: Number(row.seq) } : null;
  }

  /** Inserts the deliveries not there yet (one per endpoint and event); answers the ids of those inserted. */
  async insertDeliveries(tx: Tx, deliveries: NewDelivery[]): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const rows = await run(tx, INSERT_DELIVERIES, [
      deliveries.map((d) => d.subscriptionId),
      deliveries.map((d) => d.workspaceId),
      deliveries.map((d) => d.eventId),
      deliveries.map((d) => d.eventType),
      deliveries.map((d) => JSON.stringify(d.payload)),
      deliveries.map((d) => d.resourceId ?? null),
      deliveries.map((d) => (d.seq === undefined ? null : String(d.seq))),
    ]);
    return rows.map((row) => row.id);
  }

  findDelivery(tx: Tx | null, id: string): Promise<WebhookDelivery | null> {
    return (tx ?? this.dataSource.manager).getRepository(WebhookDelivery).findOneBy({ id });
  }

  findSubscription(tx: Tx | null, id: string): Promise<WebhookSubscription | null> {
    return (tx ?? this.dataSource.manager).getRepository(WebhookSubscription).findOneBy({ id });
  }

  /** The delivery, if the developer is a member of its workspace. */
  findDeliveryVisibleTo(tx: Tx | null, developerId: string, id: string): Promise<WebhookDelivery | null> {
    return findVisibleToMember(tx ?? this.dataSource.manager, WebhookDelivery, developerId, id);
  }

  /** An endpoint's deliveries, newest first. */
  deliveries(workspaceId: string, subscriptionId: string, limit: number): Promise<WebhookDelivery[]> {
    return this.dataSource
      .getRepository(WebhookDelivery)
      .find({ where: { workspaceId, subscriptionId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  async recordAttempt(
    tx: Tx,
    workspaceId: string,
    id: string,
    outcome: { status: WebhookDelivery['status']; responseCode: number | null; error: string | null; nextAttemptAt: Date | null },
  ): Promise<void> {
    await tx.getRepository(WebhookDelivery).update(
      { workspaceId, id },
      {
        status: outcome.status,
        attempts: () => 'attempts + 1',
        lastResponseCode: outcome.responseCode,
        lastError: outcome.error,
        nextAttemptAt: outcome.nextAttemptAt,
        ...(outcome.status === 'succeeded' && { deliveredAt: () => 'now()' }),
      },
    );
  }

  /** A delivery to send again: pending, due now. */
  async requeue(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx.getRepository(WebhookDelivery).update({ workspaceId, id }, { status: 'pending', nextAttemptAt: () => 'now()' });
  }

  /** A pending delivery's next attempt moved without an attempt made. */
  async reschedule(tx: Tx, workspaceId: string, id: string, at: Date): Promise<void> {
    await tx.getRepository(WebhookDelivery).update({ workspaceId, id, status: 'pending' }, { nextAttemptAt: at });
  }

  /** Marks the endpoint failing since `since` unless it already is; answers since when it has been failing. */
  async markFailing(tx: Tx, workspaceId: string, id: string, since: Date): Promise<Date> {
    return (await first(tx, MARK_FAILING, [workspaceId, id, since]))?.failingSince ?? since;
  }

  async markHealthy(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx.getRepository(WebhookSubscription).update({ workspaceId, id }, { failingSince: null });
  }

  async disable(tx: Tx, workspaceId: string, id: string, reason: string): Promise<void> {
    await tx
      .getRepository(WebhookSubscription)
      .update({ workspaceId, id }, { isActive: false, disabledReason: reason, updatedAt: () => 'now()' });
  }
}
