import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Counter, register } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';

export interface JobContext {
  jobId: string;
  attempt: number;
}
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void>;

interface ClaimedJob {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

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
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  registerHandler(queue: string, handler: JobHandler): void {
    this.handlers.set(queue, handler);
  }

  async enqueue(
    manager: EntityManager,
    queue: string,
    payload: Record<string, unknown>,
    opts: { runAt?: Date; maxAttempts?: number } = {},
  ): Promise<string> {
    const rows = (await manager.query(
      `INSERT INTO jobs (queue, payload, run_at, max_attempts) VALUES ($1, $2, COALESCE($3, now()), $4) RETURNING id`,
      [queue, JSON.stringify(payload), opts.runAt ?? null, opts.maxAttempts ?? 10],
    )) as { id: string }[];
    return rows[0].id;
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

  private tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.drain()
      .then(() => undefined)
      .catch((err: Error) => this.logger.warn(`job poll failed: ${err.message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async claim(): Promise<ClaimedJob | undefined> {
    const queues = [...this.handlers.keys()];
    if (queues.length === 0) return undefined;
    const result = (await this.dataSource.query(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1,
              locked_until = now() + ($3 || ' milliseconds')::interval, locked_by = $2
        WHERE id = (
          SELECT id FROM jobs
           WHERE queue = ANY($1)
             AND ((status = 'pending' AND run_at <= now()) OR (status = 'running' AND locked_until < now()))
           ORDER BY run_at
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING id, queue, payload, attempts, max_attempts`,
      [queues, this.workerId, String(this.config.JOBS_LEASE_MS)],
    )) as [ClaimedJob[], number] | ClaimedJob[];
    const rows = (Array.isArray(result[0]) ? result[0] : result) as ClaimedJob[];
    return rows[0];
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.queue)!;
    try {
      await handler(job.payload, { jobId: job.id, attempt: job.attempts });
      await this.dataSource.query(
        `UPDATE jobs SET status = 'completed', completed_at = now(), locked_until = NULL, last_error = NULL WHERE id = $1 AND locked_by = $2`,
        [job.id, this.workerId],
      );
      jobRuns.inc({ queue: job.queue, outcome: 'completed' });
    } catch (err) {
      const message = (err as Error).message?.slice(0, 1000) ?? String(err);
      const final = job.attempts >= job.max_attempts;
      // Exponential backoff: 2 s, 4 s, 8 s … capped at 5 minutes.
      const delayMs = Math.min(2000 * 2 ** (job.attempts - 1), 300000);
      await this.dataSource.query(
        `UPDATE jobs SET status = $3, last_error = $4, locked_until = NULL,
                run_at = now() + ($5 || ' milliseconds')::interval
          WHERE id = $1 AND locked_by = $2`,
        [job.id, this.workerId, final ? 'failed' : 'pending', message, String(delayMs)],
      );
      jobRuns.inc({ queue: job.queue, outcome: final ? 'failed' : 'retry' });
      this.logger.warn(`job ${job.queue}/${job.id} attempt ${job.attempts} failed${final ? ' (giving up)' : ''}: ${message}`);
    }
  }
}
