import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Counter, register } from 'prom-client';
import { isUuid } from '../common/ids';
import { AUDIT_EVENTS } from '../events/audit-catalog';
import { AuditFacts, DomainEvent, StatementRider } from '../events/domain-events';
import { OUTBOX_AUDIT_EVENTS } from '../events/outbox-audit-events';
import type { TransactionPhaseWriter } from '../events/transaction-phase';
import { AuditRepository, AuditRowValues } from './audit.repository';
import { sanitizeMetadata, sanitizeText } from './sanitize';

const failures =
  (register.getSingleMetric('audit_write_failures_total') as Counter | undefined) ??
  new Counter({ name: 'audit_write_failures_total', help: 'Audit rows that could not be written', labelNames: ['mode'] });

/** Attempts for an event written outside a transaction (a refused sign-in): the database may be briefly away. */
const DETACHED_ATTEMPTS = 3;

/**
 * The audit writer, the first of the unit of work's transaction-phase writers (the app layer lists
 * it in TRANSACTION_PHASE_WRITERS): every domain event becomes the audit row its name has in the
 * catalog (src/events/audit-catalog.ts, `toRow` below). Inside a unit of work it writes on the
 * same transaction before commit, so the change and its record commit together; the write cannot fail that transaction (audit_append rolls a failed insert back to
 * its own savepoint), and a failure is logged with the request id and counted, never thrown,
 * except for the rows that are an outbox (OUTBOX_AUDIT_EVENTS, decision 0954): their failure fails
 * the change.
 * An event published outside a transaction (one that changes nothing) is written on its own,
 * with retries.
 */
@Injectable()
export class AuditWriter implements TransactionPhaseWriter {
  readonly name = 'audit';
  private readonly logger = new Logger('Audit');

  constructor(private readonly repository: AuditRepository) {}

  /** The rows Shared Signals read as an outbox (decision 0954): a failed insert fails the change instead. */
  failsTheChangeOn(event: DomainEvent): boolean {
    return OUTBOX_AUDIT_EVENTS.has(event.name);
  }

  async write(event: DomainEvent, tx: EntityManager | null): Promise<void> {
    const row = toRow(event.name, event.payload);
    if (tx) {
      const error = await this.attempt(() => this.repository.append(tx, row));
      this.report('transactional', event, error);
      if (error !== null && this.failsTheChangeOn(event)) throw new Error(`the audit row of ${event.name} is an outbox row: ${error}`);
      return;
    }
    let error: string | null = null;
    for (let attempt = 1; attempt <= DETACHED_ATTEMPTS; attempt++) {
      error = await this.attempt(() => this.repository.append(null, row));
      if (error === null) return;
      if (attempt < DETACHED_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 50 * 4 ** attempt));
    }
    this.report('detached', event, error);
  }

  /** The same write riding in a one-statement unit of work's statement; its outcome is reported alike. */
  rider(event: DomainEvent): StatementRider | null {
    // A rider's failure is settled after the statement and cannot fail it: an outbox row needs a transaction.
    if (this.failsTheChangeOn(event)) return null;
    const { expression, params } = this.repository.appendExpression(toRow(event.name, event.payload));
    return { expression, params, settle: (error) => this.report('transactional', event, error) };
  }

  private async attempt(append: () => Promise<string | null>): Promise<string | null> {
    try {
      return await append();
    } catch (err) {
      return (err as Error).message;
    }
  }

  private report(mode: string, event: DomainEvent, error: string | null): void {
    if (error === null) return;
    failures.inc({ mode });
    const { workspaceId, request } = event.payload;
    const requestPart = request?.requestId ? `, request ${request.requestId}` : '';
    this.logger.error(`audit write failed for ${event.name} (workspace ${workspaceId ?? '-'}${requestPart}): ${error}`);
  }
}

/** The row of an event: sanitised and cut to size so that its content alone can never make the insert fail. */
export function toRow(eventType: keyof typeof AUDIT_EVENTS, facts: AuditFacts): AuditRowValues {
  const catalog = AUDIT_EVENTS[eventType];
  return {
    workspaceId: facts.workspaceId && isUuid(facts.workspaceId) ? facts.workspaceId : null,
    eventType,
    severity: facts.severity ?? catalog.severity,
    actorType: facts.actor.type,
    actorId: sanitizeText(facts.actor.id, 255),
    actorEmail: sanitizeText(facts.actor.email, 320),
    targetType: sanitizeText(facts.target?.type, 100),
    targetId: sanitizeText(facts.target?.id, 255),
    oauthClientId: sanitizeText(facts.oauthClientId, 255),
    ipAddress: sanitizeText(facts.request?.ip, 100),
    userAgent: sanitizeText(facts.request?.userAgent, 1000),
    requestId: sanitizeText(facts.request?.requestId, 128),
    message: sanitizeText(facts.message ?? catalog.description, 255) ?? '',
    metadata: sanitizeMetadata(withNames(facts)),
    createdAt: facts.createdAt ?? null,
  };
}

/**
 * The metadata with the names of the actor and the target where the event knows them (an API token's
 * label, a person's email), so a reader of the log sees who beside the ids (decision 0329).
 * What the event's own metadata says under these keys wins.
 */
function withNames(facts: AuditFacts): Record<string, unknown> | undefined {
  const names: Record<string, string> = {};
  if (facts.actor.label) names.actor_label = sanitizeText(facts.actor.label, 200) ?? '';
  if (facts.target?.email) names.target_email = sanitizeText(facts.target.email, 320) ?? '';
  if (Object.keys(names).length === 0) return facts.metadata;
  return { ...names, ...facts.metadata };
}
