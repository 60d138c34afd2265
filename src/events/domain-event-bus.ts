import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DomainEventName, DomainEvents } from './domain-events';

/** Emits typed domain events; a listener failure is logged and never reaches the caller. */
@Injectable()
export class DomainEventBus {
  private readonly logger = new Logger(DomainEventBus.name);

  constructor(private readonly emitter: EventEmitter2) {}

  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    try {
      this.emitter.emit(name, payload);
    } catch (err) {
      this.logger.error(`listener of ${name} failed: ${(err as Error).message}`);
    }
  }
}
