import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { EntityManager } from 'typeorm';
import { DomainEvent, DomainEventName, DomainEvents, StatementRider } from './domain-events';
import { TRANSACTION_PHASE_WRITERS, type TransactionPhaseWriter } from './transaction-phase';

/**
 * Hands domain events on in two phases. The transaction phase runs the injected writers
 * (TRANSACTION_PHASE_WRITERS: the audit writer) on the unit of work's transaction, before commit.
 * After commit, each event goes out by its own name to its `@OnEvent(name)` handlers (e.g.
 * `login_success` → AnomalyListener). A failure in either phase is logged and never reaches the caller.
 */
@Injectable()
export class DomainEventBus {
  private readonly logger = new Logger(DomainEventBus.name);

  constructor(
    private readonly emitter: EventEmitter2,
    @Inject(TRANSACTION_PHASE_WRITERS) private readonly writers: readonly TransactionPhaseWriter[],
  ) {}

  /**
   * For an event that changes nothing, outside any unit of work (a refused sign-in, a refused
   * SSO): the writers write it on their own (the audit writer with retries) and are awaited; the
   * after-commit handlers follow.
   */
  async publish<K extends DomainEventName>(name: K, payload: DomainEvents[K]): Promise<void> {
    const event = { name, payload } as DomainEvent;
    await this.runTransactionPhase([event], null);
    this.runAfterCommit([event]);
  }

  /** Runs every writer on each event, in order, on `tx` (null: no transaction). */
  async runTransactionPhase(events: readonly DomainEvent[], tx: EntityManager | null): Promise<void> {
    for (const event of events) {
      for (const writer of this.writers) {
        try {
          await writer.write(event, tx);
        } catch (err) {
          this.logger.error(`transaction-phase writer ${writer.name} failed on ${event.name}: ${(err as Error).message}`);
          if (tx && (writer.failsTheChange || writer.failsTheChangeOn?.(event))) throw err;
        }
      }
    }
  }

  /**
   * The transaction phase of `events` as riders on one statement, or null when some writer cannot
   * ride (then the caller runs a transaction instead).
   */
  riders(events: readonly DomainEvent[]): StatementRider[] | null {
    const riders: StatementRider[] = [];
    for (const event of events) {
      for (const writer of this.writers) {
        const rider = this.riderOf(writer, event);
        if (rider === null) return null;
        riders.push(rider);
      }
    }
    return riders;
  }

  /** Hands each event to its after-commit handlers (they run asynchronously and catch their own errors). */
  runAfterCommit(events: readonly DomainEvent[]): void {
    for (const event of events) {
      try {
        this.emitter.emit(event.name, event.payload);
      } catch (err) {
        this.logger.error(`after-commit handler of ${event.name} failed: ${(err as Error).message}`);
      }
    }
  }

  private riderOf(writer: TransactionPhaseWriter, event: DomainEvent): StatementRider | null {
    try {
      return writer.rider(event);
    } catch (err) {
      this.logger.warn(`transaction-phase writer ${writer.name} cannot ride ${event.name}: ${(err as Error).message}`);
      return null;
    }
  }
}
