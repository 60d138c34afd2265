import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEventBus } from '../events/domain-event-bus';
import { DomainEvent, DomainEventName, DomainEvents, StatementRider } from '../events/domain-events';

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

  /**
   * A unit of work whose change is one statement, for hot single-row writes (SCIM create): the
   * service emits its events up front, and `write` runs the change with the transaction-phase
   * writes riding in the same statement (`riders`, evaluated once per row the change returns, so
   * a change that writes nothing records nothing). One round trip and PostgreSQL's own atomicity
   * instead of BEGIN, statement, audit append, COMMIT. When some transaction-phase listener cannot
   * ride, `write` runs inside an ordinary unit of work with no riders. After-commit listeners run
   * once it has committed and only if it wrote something (`wrote`).
   */
  async runAsOneStatement<T>(
    emit: (events: EmittedEvents) => void,
    write: (on: Tx | null, riders: readonly StatementRider[]) => Promise<T>,
    wrote: (result: T) => boolean,
  ): Promise<T> {
    const events = new EmittedEvents();
    emit(events);
    const riders = await this.bus.riders(events.all);
    if (riders === null) {
      return this.run(async (tx, inner) => {
        const result = await write(tx, []);
        if (wrote(result)) for (const event of events.all) inner.emit(event.name, event.payload as never);
        return result;
      });
    }
    const result = await write(null, riders);
    if (wrote(result)) this.bus.runAfterCommit(events.all);
    return result;
  }
}
