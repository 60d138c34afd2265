import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEventBus } from '../events/domain-event-bus';
import { DomainEvent, DomainEventName, DomainEvents } from '../events/domain-events';

/** A transaction's EntityManager, as repositories take it. */
export type Tx = EntityManager;

/** What a service says happened inside its unit of work. */
export class EmittedEvents {
  private readonly list: DomainEvent[] = [];

  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.list.push({ name, payload } as DomainEvent);
  }

  get all(): readonly DomainEvent[] {
    return this.list;
  }
}

/**
 * One transaction and the domain events emitted inside it. The transaction-phase listeners
 * (the audit writer) run on the same transaction once the work is done and before it commits,
 * so a change and its audit row commit together or not at all; the after-commit listeners
 * (anomaly detection, mail) run only once it has committed, so they never see a change that
 * was rolled back.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: DomainEventBus,
  ) {}

  async run<T>(work: (tx: Tx, events: EmittedEvents) => Promise<T>): Promise<T> {
    const events = new EmittedEvents();
    const result = await this.dataSource.transaction(async (tx) => {
      const value = await work(tx, events);
      await this.bus.runTransactionPhase(events.all, tx);
      return value;
    });
    this.bus.runAfterCommit(events.all);
    return result;
  }
}
