import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { JobContext, JobsService } from '../jobs/jobs.service';
import { postForOutcome } from '../common/safe-http';
import { SET_TYPE } from './set-signer';
import { SSF_PUSH_ATTEMPTS, SSF_PUSH_QUEUE, ssfPushBackoffMs } from './ssf-queue';
import { PendingPush, PushOutcome, SsfStreamsRepository } from './ssf-streams.repository';

/** SETs read per statement; each is still its own POST (RFC 8935 §2). */
const BATCH = 50;

/**
 * Push delivery (RFC 8935), one job per stream (decision 0972): the job takes the stream's push
 * lease and POSTs its pending SETs one by one in the order they were made, through the webhooks'
 * SSRF guard (decision 0712), recording each batch's outcomes in one write. A 2xx (202 Accepted) is
 * delivered; a 400 is the receiver refusing that SET (§2.3), final, and the next one goes; anything
 * else, or no answer, stops the stream there and hands the lease to a job due after the backoff
 * (2 s doubling, capped at 5 minutes; failed for good after SSF_PUSH_ATTEMPTS, decision 0523), so a
 * later SET never overtakes it. The same SET (same jti) is sent each time: at least once.
 */
@Injectable()
export class SsfPushWorker implements OnModuleInit {
  private readonly logger = new Logger('SharedSignals');

  constructor(
    private readonly streams: SsfStreamsRepository,
    private readonly jobs: JobsService,
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {}

  onModuleInit(): void {
    this.jobs.registerHandler(SSF_PUSH_QUEUE, (payload, ctx) => this.run(payload, ctx));
  }

  private async run(payload: Record<string, unknown>, ctx: JobContext): Promise<void> {
    if (typeof payload.stream_id === 'string' && typeof payload.workspace_id === 'string') {
      return this.drain(payload.workspace_id, payload.stream_id, ctx.jobId);
    }
    // A job queued by an earlier version names one SET: drain its stream.
    const set = typeof payload.set_id === 'string' ? await this.streams.findSet(payload.set_id) : null;
    if (set) await this.drain(set.workspaceId, set.streamId, ctx.jobId);
  }

  /**
   * Drains the stream's pending SETs while this job holds its lease. The job's id is the holder:
   * the same job taken again after a crash (its lease ran out) carries on where it stopped.
   */
  async drain(workspaceId: string, streamId: string, jobId: string): Promise<void> {
    // A drain stays well inside the job's own lease, so that no other worker takes the job meanwhile.
    const leaseMs = this.config.JOBS_LEASE_MS;
    const until = Date.now() + leaseMs / 2;
    for (;;) {
      const batch = await this.streams.claimPush(workspaceId, streamId, jobId, leaseMs, BATCH);
      if (!batch?.mine) return;
      const headers: Record<string, string> = { 'content-type': `application/${SET_TYPE}`, accept: 'application/json' };
      if (batch.authorizationEncrypted) headers.authorization = this.box.decrypt(batch.authorizationEncrypted);
      const outcomes: PushOutcome[] = [];
      let retry: PendingPush | undefined;
      for (const set of batch.sets) {
        const outcome = await this.post(batch.endpointUrl, headers, set);
        outcomes.push(outcome);
        if (outcome.status === 'pending') {
          retry = set;
          break;
        }
        if (Date.now() > until) break;
      }
      if (retry) return this.handOver(workspaceId, streamId, jobId, outcomes, ssfPushBackoffMs(retry.attempts + 1));
      if (Date.now() > until) return this.handOver(workspaceId, streamId, jobId, outcomes, 0);
      const all = outcomes.length === batch.sets.length && batch.sets.length < BATCH;
      if (!(await this.streams.settlePush(workspaceId, streamId, jobId, outcomes, all))) return;
    }
  }

  private async post(endpointUrl: string, headers: Record<string, string>, set: PendingPush): Promise<PushOutcome> {
    const sent = await postForOutcome(
      endpointUrl,
      set.token,
      headers,
      { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS, timeoutMs: this.config.WEBHOOK_TIMEOUT_MS },
      300,
    );
    if (sent.error === null) return { id: set.id, status: 'delivered', error: null };
    const attempt = set.attempts + 1;
    const final = sent.status === 400 || attempt >= SSF_PUSH_ATTEMPTS;
    this.logger.warn(`SET ${set.jti} push attempt ${attempt} failed${final ? ' (final)' : ''}: ${sent.error}`);
    return { id: set.id, status: final ? 'failed' : 'pending', error: sent.error };
  }

  /** Records the outcomes and hands the lease to a new job of the stream due in `delayMs`, in one transaction. */
  private async handOver(workspaceId: string, streamId: string, jobId: string, outcomes: PushOutcome[], delayMs: number): Promise<void> {
    const runAt = new Date(Date.now() + delayMs);
    await this.uow.run(async (tx) => {
      const next = await this.jobs.enqueue(
        tx,
        SSF_PUSH_QUEUE,
        { workspace_id: workspaceId, stream_id: streamId },
        { maxAttempts: SSF_PUSH_ATTEMPTS, ...(delayMs > 0 ? { runAt } : {}) },
      );
      await this.streams.handOverPush(
        tx,
        workspaceId,
        streamId,
        jobId,
        outcomes,
        next,
        new Date(runAt.getTime() + this.config.JOBS_LEASE_MS),
      );
    });
  }
}
