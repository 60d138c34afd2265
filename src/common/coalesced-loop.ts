import type { Logger } from '@nestjs/common';

/**
 * One background pass at a time, on a timer and on demand: a wake during a pass runs one more pass
 * after it (what woke it may have committed after the pass read), never two passes at once. `stop`
 * waits for the pass in flight. The sealer and the dispatchers that follow it share this loop.
 */
/** One batch of a feed's work: how much it made, and whether the feed has more after it. */
export interface Batch {
  made: number;
  more: boolean;
}

export class CoalescedLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  /** Whether `stop` was called: long passes check it between batches. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(intervalMs: number, now = false): void {
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.timer.unref();
    if (now) this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /**
   * A pass over several feeds (a dispatcher's endpoints or streams): each id's batches run until one
   * says there is no more, and the pass ends between two batches once `stop` was called (what is
   * left waits for the next start). Answers how much the batches made.
   */
  async drain(ids: readonly string[], batch: (id: string) => Promise<Batch>): Promise<number> {
    let made = 0;
    for (const id of ids) {
      for (let more = true; more;) {
        if (this.stopped) return made;
        const done = await batch(id);
        made += done.made;
        more = done.more;
      }
    }
    return made;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .then(() => undefined)
      .catch((err: Error) => this.logger.warn(`${this.what} failed: ${err.message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }
}
