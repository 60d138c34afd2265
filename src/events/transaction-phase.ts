import type { EntityManager } from 'typeorm';
import type { DomainEvent, StatementRider } from './domain-events';

/**
 * A write that belongs to the transaction of the change it records: the audit writer is the one
 * today. The unit of work runs every writer of TRANSACTION_PHASE_WRITERS, in that order, on each
 * event it was told about, on the same transaction, before commit.
 */
export interface TransactionPhaseWriter {
  /** Named in the logs of a failure. */
  readonly name: string;
  /**
   * An outbox writer (the directory events, decision 0510): what it writes must exist exactly when
   * the change does, so its failure fails the change instead of being logged.
   */
  readonly failsTheChange?: boolean;
  /** The same, for some events only (the audit writer, for the rows that are an outbox: decision 0954). */
  failsTheChangeOn?(event: DomainEvent): boolean;
  /**
   * On `tx` before it commits. `tx` is null for an event that changed nothing, published outside
   * any transaction (a refused sign-in): the writer writes it on its own. A failed write is the
   * writer's to report; it must not fail the change, unless the writer says it does (failsTheChange).
   */
  write(event: DomainEvent, tx: EntityManager | null): Promise<void>;
  /**
   * The same write riding inside a one-statement unit of work's statement (decision 0016), or
   * null when it needs a transaction of its own (then the unit of work opens one).
   */
  rider(event: DomainEvent): StatementRider | null;
}

/**
 * The injected, ordered list of transaction-phase writers (the audit writer first). The app layer
 * names them (DatabaseModule.forRoot in src/app.module.ts): the foundation knows the port only.
 */
export const TRANSACTION_PHASE_WRITERS = Symbol('TRANSACTION_PHASE_WRITERS');
