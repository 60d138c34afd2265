import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Counter, register } from 'prom-client';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { ClaimedJob, JobsRepository } from './jobs.repository';

export interface JobContext {
  jobId: string;
  attempt: number;
}
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void>;

const jobRuns =
  (register.getSingleMetric('jobs_runs_total') as Counter | undefined) ??
  new Counter({ name: 'jobs_runs_total', help: 'Job executions by queue and outcome', labelNames: ['queue', 'outcome'] });

/**
 * Durable job queue in PostgreSQL. Jobs are enqueued in the caller's transaction
 * (so they exist exactly when the change does) and drained with
 * FOR UPDATE SKIP LOCKED under a lease: a crashed worker's job is taken again
 * when its lease runs out; a completed job is never taken again.
 */
@Injectable()
export class JobsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobHandler>();
  private readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly jobs: JobsRepository,
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  registerHandler(queue: string, handler: JobHandler): void {
    this.handlers.set(queue, handler);
  }

  /**
   * Enqueues on the caller's transaction (`manager`), so the job exists exactly when the change
   * does, and wakes the worker once that unit of work commits (an after-commit hook: no caller
   * kicks the worker by hand). A job due later waits for its time.
   */
  async enqueue(
    manager: EntityManager,
    queue: string,
    payload: Record<string, unknown>,
    opts: { runAt?: Date; maxAttempts?: number } = {},
  ): Promise<string> {
    const id = await this.jobs.enqueue(manager, { queue, payload, runAt: opts.runAt, maxAttempts: opts.maxAttempts ?? 10 });
    if (!opts.runAt) this.uow.afterCommit(manager, `wake the job worker for ${queue}`, () => this.kick());
    return id;
  }

  /** Ask the worker to look for due jobs now instead of at the next tick. */
  kick(): void {
    if (this.config.JOBS_WORKER_ENABLED && !this.stopping) void this.tick();
  }

  onApplicationBootstrap(): void {
    if (!this.config.JOBS_WORKER_ENABLED) return;
    this.timer = setInterval(() => void this.tick(), this.config.JOBS_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs every due job once (used by the poller; tests call it to drain synchronously). */
  async drain(): Promise<number> {
    let processed = 0;
    while (!this.stopping) {
      const job = await this.claim();
      if (!job) break;
      await this.execute(job);
      processed++;
    }
    return processed;
  }

  /** Starts JOBS_CONCURRENCY drains side by side (claims never collide: FOR UPDATE SKIP LOCKED), unless they run already. */
  private tick(): Promise<void> {
    if (this.running) return this.running;
    const lanes = Array.from({ length: this.config.JOBS_CONCURRENCY }, () =>
      this.drain().catch((err: Error) => this.logger.warn(`job poll failed: ${err.message}`)),
    );
    this.running = Promise.all(lanes)
      .then(() => undefined)
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async claim(): Promise<ClaimedJob | undefined> {
    const queues = [...this.handlers.keys()];
    if (queues.length === 0) return undefined;
    return this.jobs.claim(queues, this.workerId, this.config.JOBS_LEASE_MS);
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.queue)!;
    try {
      await handler(job.payload, { jobId: job.id, attempt: job.attempts });
      await this.jobs.complete(job.id, this.workerId);
      jobRuns.inc({ queue: job.queue, outcome: 'completed' });
    } catch (err) {
      const message = (err as Error).message?.slice(0, 1000) ?? String(err);
      const final = job.attempts >= job.maxAttempts;
      // Exponential backoff: 2 s, 4 s, 8 s … capped at 5 minutes.
      const delayMs = Math.min(2000 * 2 ** (job.attempts - 1), 300000);
      await this.jobs.release(job.id, this.workerId, { final, error: message, delayMs });
      jobRuns.inc({ queue: job.queue, outcome: final ? 'failed' : 'retry' });
      this.logger.warn(`job ${job.queue}/${job.id} attempt ${job.attempts} failed${final ? ' (giving up)' : ''}: ${message}`);
    }
  }
}
