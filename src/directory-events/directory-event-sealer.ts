import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { CoalescedLoop } from '../common/coalesced-loop';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { DirectoryEventsRepository } from './directory-events.repository';

/** Emitted (in process) after a pass numbered events: the workspaces whose feed moved. */
export const DIRECTORY_EVENTS_SEALED = 'directory.events.sealed';

const BATCH = 1000;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Gives committed directory events their feed position (decision 0511). Woken right after a
 * commit of this instance (DirectoryEventsListener) and every DIRECTORY_EVENTS_SEAL_INTERVAL_MS
 * (commits of other instances); one pass at a time across instances (an advisory lock held to
 * commit, which a second instance waits for rather than skips). Numbering after commit is what
 * makes the feed unable to skip: a row not yet committed has no seq, and gets one above every seq
 * already handed out.
 */
@Injectable()
export class DirectoryEventSealer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DirectoryEvents');
  private readonly loop = new CoalescedLoop(() => this.sealAll().then(() => this.pruneNow()), this.logger, 'sealing directory events');
  private lastPrune = Date.now();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly events: DirectoryEventsRepository,
    private readonly emitter: EventEmitter2,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(this.config.DIRECTORY_EVENTS_SEAL_INTERVAL_MS, true);
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Seal now; a wake during a pass runs one more pass after it (the commit may have missed it). */
  wake(): void {
    this.loop.wake();
  }

  /** Numbers every committed event that has no seq yet; answers how many. */
  async sealAll(): Promise<number> {
    let total = 0;
    for (;;) {
      if (this.loop.stopping) return total;
      const workspaces = await this.uow.run(async (tx) => {
        await this.events.lockSealer(tx);
        return this.events.seal(tx, BATCH);
      });
      total += workspaces.length;
      if (workspaces.length > 0) this.emitter.emit(DIRECTORY_EVENTS_SEALED, [...new Set(workspaces)]);
      if (workspaces.length < BATCH) return total;
    }
  }

  private async pruneNow(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.events.prune(this.config.DIRECTORY_EVENTS_RETENTION_DAYS);
  }
}
