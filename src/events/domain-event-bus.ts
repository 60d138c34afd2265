import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { EntityManager } from 'typeorm';
import {
  DomainEvent,
  DomainEventName,
  DomainEvents,
  StatementRider,
  TRANSACTION_PHASE,
  TRANSACTION_PHASE_RIDER,
  TransactionPhaseEvent,
} from './domain-events';

/**
 * Fans domain events out to their listeners in two phases: the transaction phase (on the
 * unit of work's transaction, before commit; the audit writer) and after commit (anomaly
 * detection, mail). A listener failure is logged and never reaches the caller.
 */
@Injectable()
export class DomainEventBus {
  private readonly logger = new Logger(DomainEventBus.name);

  constructor(private readonly emitter: EventEmitter2) {}

  /**
   * For an event that changes nothing, outside any unit of work (a refused sign-in, a refused
   * SSO): the transaction-phase listeners run without a transaction (the audit writer writes
   * on its own, with retries) and are awaited; the after-commit listeners follow.
   */
  async publish<K extends DomainEventName>(name: K, payload: DomainEvents[K]): Promise<void> {
    const event = { name, payload } as DomainEvent;
    await this.runTransactionPhase([event], null);
    this.runAfterCommit([event]);
  }

  /** Runs the transaction-phase listeners of each event, in order, on `tx` (null: no transaction). */
  async runTransactionPhase(events: readonly DomainEvent[], tx: EntityManager | null): Promise<void> {
    for (const event of events) {
      const phaseEvent: TransactionPhaseEvent = { ...event, tx };
      try {
        await this.emitter.emitAsync(TRANSACTION_PHASE, phaseEvent);
      } catch (err) {
        this.logger.error(`transaction-phase listener of ${event.name} failed: ${(err as Error).message}`);
      }
    }
  }

  /**
   * The transaction phase of `events` as riders on one statement, or null when a transaction-phase
   * listener cannot ride (then the caller runs a transaction instead): it answers nothing, or
   * fails. Listeners are called one by one rather than through emitAsync, whose bookkeeping
   * showed in the CPU profile of the hottest write.
   */
  async riders(events: readonly DomainEvent[]): Promise<StatementRider[] | null> {
    const listeners = this.emitter.listeners(TRANSACTION_PHASE_RIDER) as ((event: DomainEvent) => unknown)[];
    if (listeners.length !== this.emitter.listeners(TRANSACTION_PHASE).length) return null;
    const riders: StatementRider[] = [];
    for (const event of events) {
      for (const listener of listeners) {
        const answer = await ridingAnswer(() => listener(event));
        if (answer === null) return null;
        riders.push(answer);
      }
    }
    return riders;
  }

  /** Hands each event to its after-commit listeners (they run asynchronously and catch their own errors). */
  runAfterCommit(events: readonly DomainEvent[]): void {
    for (const event of events) {
      try {
        this.emitter.emit(event.name, event.payload);
      } catch (err) {
        this.logger.error(`listener of ${event.name} failed: ${(err as Error).message}`);
      }
    }
  }
}

async function ridingAnswer(call: () => unknown): Promise<StatementRider | null> {
  try {
    const answer: unknown = await call();
    const isRider = typeof answer === 'object' && answer !== null && 'expression' in answer && 'settle' in answer;
    return isRider ? (answer as StatementRider) : null;
  } catch {
    return null;
  }
}
