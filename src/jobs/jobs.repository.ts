import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityColumns, NO_ROW } from '../database/row-shape';
import { first, one, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { Job } from './entities/job.entity';

/** A job a worker has just claimed (its attempt already counted). */
export type ClaimedJob = Pick<Job, 'id' | 'queue' | 'payload' | 'attempts' | 'maxAttempts'>;

export interface NewJob {
  queue: string;
  payload: Record<string, unknown>;
  /** Default: now. */
  runAt?: Date;
  maxAttempts: number;
}

// On the write path of every change that queues work (sign-ups' mail, provisioning): prepared.
const ENQUEUE = statement(
  'jobs.enqueue',
  `INSERT INTO jobs (queue, payload, run_at, max_attempts) VALUES ($1, $2, COALESCE($3, now()), $4) RETURNING id`,
  entityColumns(Job, ['id']),
);

/**
 * The claim: the oldest due job of the given queues (pending, or running under a lease that ran
 * out), taken under FOR UPDATE SKIP LOCKED so that competing workers never take the same one,
 * and leased to this worker in the same statement.
 */
const CLAIM = statement(
  'jobs.claim',
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
  entityColumns(Job, ['id', 'queue', 'payload', 'attempts', 'maxAttempts']),
);

// The next attempt is due after a delay on the database's clock (the same clock as the claim's).
const RELEASE_FAILED = statement(
  'jobs.release-failed',
  `UPDATE jobs SET status = $3, last_error = $4, locked_until = NULL,
        run_at = now() + ($5 || ' milliseconds')::interval
  WHERE id = $1 AND locked_by = $2`,
  NO_ROW,
);

/** jobs: the durable queue (decision 0002). Not a tenant table: payloads name their workspace. */
@Injectable()
export class JobsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts the job on the caller's transaction, so it exists exactly when the change does; its id. */
  async enqueue(tx: Tx, job: NewJob): Promise<string> {
    return (await one(tx, ENQUEUE, [job.queue, JSON.stringify(job.payload), job.runAt ?? null, job.maxAttempts])).id;
  }

  /** Claims one due job of these queues for the worker, leased for `leaseMs`; undefined when none is due. */
  async claim(queues: string[], workerId: string, leaseMs: number): Promise<ClaimedJob | undefined> {
    return first(this.dataSource, CLAIM, [queues, workerId, String(leaseMs)]);
  }

  /** Marks the job done, if this worker still holds it. */
  async complete(jobId: string, workerId: string): Promise<void> {
    await this.dataSource
      .getRepository(Job)
      .update({ id: jobId, lockedBy: workerId }, { status: 'completed', completedAt: () => 'now()', lockedUntil: null, lastError: null });
  }

  /** Releases a failed attempt, if this worker still holds it: pending again after `delayMs`, or failed for good. */
  async release(jobId: string, workerId: string, outcome: { final: boolean; error: string; delayMs: number }): Promise<void> {
    await run(this.dataSource, RELEASE_FAILED, [
      jobId,
      workerId,
      outcome.final ? 'failed' : 'pending',
      outcome.error,
      String(outcome.delayMs),
    ]);
  }
}
