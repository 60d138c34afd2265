import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEventBus } from '../events/domain-event-bus';
import { DomainEvent, DomainEventName, DomainEvents, StatementRider } from '../events/domain-events';

/** A transaction's EntityManager, as repositories take it. */
export type Tx = EntityManager;

const logger = new Logger('UnitOfWork');

/** What a service says happened inside its unit of work, and what must follow its commit. */
export class EmittedEvents {
  private readonly list: DomainEvent[] = [];
  private readonly hooks = new Map<string, () => unknown>();

  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.list.push({ name, payload } as DomainEvent);
  }

  /**
   * Work that must wait for the commit and happen before the service answers: this instance's
   * cache eviction after a revocation, a worker woken for the job just queued. Named for the
   * logs and run once per name (ten jobs queued wake the worker once); runs only if the unit of
   * work committed, synchronously, in registration order, before the events' after-commit
   * handlers; a hook that throws is logged and never fails the request. A hook that answers a promise
   * (a revocation waiting for every instance's eviction, decision 0214) is awaited before the unit of
   * work answers; a rejection is logged too.
   */
  afterCommit(name: string, run: () => unknown): void {
    if (!this.hooks.has(name)) this.hooks.set(name, run);
  }

  get all(): readonly DomainEvent[] {
    return this.list;
  }

  /** @internal Called by UnitOfWork once committed; settles when the hooks' promises have. */
  runAfterCommitHooks(): Promise<void> {
    const pending: Promise<void>[] = [];
    const failed = (name: string) => (err: unknown) => logger.error(`after-commit hook ${name} failed: ${(err as Error).message}`);
    for (const [name, run] of this.hooks) {
      try {
        const settled = run();
        if (settled instanceof Promise) pending.push(settled.then(() => undefined, failed(name)));
      } catch (err) {
        failed(name)(err);
      }
    }
    return Promise.all(pending).then(() => undefined);
  }
}

/**
 * One transaction and the domain events emitted inside it. The transaction-phase writers (the
 * audit writer, injected as TRANSACTION_PHASE_WRITERS) run on the same transaction once the work
 * is done and before it commits, so a change and its audit row commit together or not at all.
 * Once it has committed, and only then: the after-commit hooks the work registered
 * (`events.afterCommit`, or `afterCommit(tx, …)` for code handed only the transaction), then each
 * event by name to its `@OnEvent` handlers (anomaly detection). Nothing after commit sees a change
 * that was rolled back.
 */
/** Where a unit of work's transaction carries its events, for afterCommit(tx, …): with the transaction, not in this singleton. */
const EVENTS_OF_TX = Symbol('unit-of-work events');
type TxOfUnitOfWork = Tx & { readonly [EVENTS_OF_TX]?: EmittedEvents };

@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: DomainEventBus,
  ) {}

  async run<T>(work: (tx: Tx, events: EmittedEvents) => Promise<T>): Promise<T> {
    const events = new EmittedEvents();
    const result = await this.dataSource.transaction(async (tx) => {
      Object.defineProperty(tx, EVENTS_OF_TX, { value: events, configurable: true });
      const value = await work(tx, events);
      await this.bus.runTransactionPhase(events.all, tx);
      return value;
    });
    await this.committed(events);
    return result;
  }

  /**
   * For code that is handed a unit of work's transaction but not its events (JobsService.enqueue):
   * run `hook` once that unit of work commits. A transaction opened elsewhere has no unit of
   * work: the hook is dropped (the job is still found by the worker's next poll).
   */
  afterCommit(tx: Tx, name: string, hook: () => unknown): void {
    (tx as TxOfUnitOfWork)[EVENTS_OF_TX]?.afterCommit(name, hook);
  }

  /**
   * A unit of work whose change is one statement, for hot single-row writes (SCIM create): the
   * service emits its events up front, and `write` runs the change with the transaction-phase
   * writes riding in the same statement (`riders`, evaluated once per row the change returns, so
   * a change that writes nothing records nothing). One round trip and PostgreSQL's own atomicity
   * instead of BEGIN, statement, audit append, COMMIT. When some transaction-phase writer cannot
   * ride, `write` runs inside an ordinary unit of work with no riders. What follows a commit runs
   * only if it wrote something (`wrote`).
   */
  async runAsOneStatement<T>(
    emit: (events: EmittedEvents) => void,
    write: (on: Tx | null, riders: readonly StatementRider[]) => Promise<T>,
    wrote: (result: T) => boolean,
  ): Promise<T> {
    const events = new EmittedEvents();
    emit(events);
    const riders = this.bus.riders(events.all);
    if (riders === null) {
      return this.run(async (tx, inner) => {
        const result = await write(tx, []);
        if (wrote(result)) {
          for (const event of events.all) inner.emit(event.name, event.payload as never);
          inner.afterCommit('one-statement hooks', () => events.runAfterCommitHooks());
        }
        return result;
      });
    }
    const result = await write(null, riders);
    if (wrote(result)) await this.committed(events);
    return result;
  }

  /** The hooks start in order, the events' handlers follow; then the hooks' promises are awaited. */
  private async committed(events: EmittedEvents): Promise<void> {
    const settled = events.runAfterCommitHooks();
    this.bus.runAfterCommit(events.all);
    await settled;
  }
}
