import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainEventBus } from '../events/domain-event-bus';
import { AuditFacts, DomainEvent } from '../events/domain-events';
import type { AuditEventType } from '../events/audit-catalog';
import { toRow } from './audit.listener';

/** @deprecated Transitional: services emit domain events in a unit of work instead. Removed once none calls it. */
export interface AuditEntry extends AuditFacts {
  eventType: AuditEventType;
}

/** @deprecated Transitional adapter onto the event bus; removed once no service calls it. */
@Injectable()
export class AuditService {
  constructor(private readonly bus: DomainEventBus) {}

  async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    const inTransaction = manager.queryRunner?.isTransactionActive ?? false;
    await this.bus.runTransactionPhase([toEvent(entry)], inTransaction ? manager : null);
  }

  async recordDetached(entry: AuditEntry): Promise<void> {
    await this.bus.runTransactionPhase([toEvent(entry)], null);
  }
}

function toEvent({ eventType, ...facts }: AuditEntry): DomainEvent {
  return { name: eventType, payload: facts } as DomainEvent;
}

const COLUMNS = `(workspace_id, event_type, severity, actor_type, actor_id, actor_email, target_type, target_id,
   oauth_client_id, ip_address, user_agent, request_id, message, metadata, created_at)`;
const CASTS = [
  'uuid',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'jsonb',
  'timestamptz',
];

/** @deprecated Transitional: the SCIM create's one-statement insert, until it moves to the unit of work. */
export function auditRowSelect(entry: AuditEntry, first: number): { columns: string; select: string; params: unknown[] } {
  const { eventType, ...facts } = entry;
  const params = Object.values(toRow(eventType, facts));
  return { columns: COLUMNS, select: params.map((_, i) => `$${first + i}::${CASTS[i]}`).join(', '), params };
}

export { isTimestampCollision } from './audit-collision';
