import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { APP_CONFIG, AppConfig } from '../config/config';
import { JobContext, JobsService } from '../jobs/jobs.service';
import { postWebhook } from '../common/safe-http';
import { PUSH } from './entities/ssf-stream.entity';
import { SET_TYPE } from './set-signer';
import { SSF_PUSH_ATTEMPTS, SSF_PUSH_QUEUE } from './ssf-queue';
import { SsfStreamsRepository } from './ssf-streams.repository';

/**
 * Push delivery (RFC 8935): POSTs one SET to the stream's endpoint with its Authorization
 * header, through the webhooks' SSRF guard (decision 0712). A 2xx (202 Accepted) is delivered; a
 * 400 is the receiver refusing that SET (§2.3), final; anything else, or no answer, is retried by
 * the job queue with backoff, up to SSF_PUSH_ATTEMPTS (decision 0523). The same SET (same jti)
 * is sent each time: at least once.
 */
@Injectable()
export class SsfPushWorker implements OnModuleInit {
  private readonly logger = new Logger('SharedSignals');
  private readonly box: SecretBox;

  constructor(
    private readonly streams: SsfStreamsRepository,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.box = new SecretBox(config.SECRETS_ENCRYPTION_KEY!);
  }

  onModuleInit(): void {
    this.jobs.registerHandler(SSF_PUSH_QUEUE, (payload, ctx) => this.push(String(payload.set_id), ctx));
  }

  async push(setId: string, ctx: JobContext): Promise<void> {
    const set = await this.streams.findSet(setId);
    if (!set || set.status !== 'pending') return;
    const stream = await this.streams.findStream(set.workspaceId, set.streamId);
    if (!stream || stream.deliveryMethod !== PUSH || !stream.endpointUrl) return;
    const headers: Record<string, string> = { 'content-type': `application/${SET_TYPE}`, accept: 'application/json' };
    if (stream.authorizationEncrypted) headers.authorization = this.box.decrypt(stream.authorizationEncrypted);
    let error: string;
    let final = false;
    try {
      const response = await postWebhook(stream.endpointUrl, set.token, headers, {
        allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      });
      if (response.status >= 200 && response.status < 300) {
        await this.streams.recordAttempt(set.workspaceId, set.id, { status: 'delivered', error: null });
        return;
      }
      error = `HTTP ${response.status}: ${response.body.slice(0, 300)}`;
      final = response.status === 400;
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
    }
    final ||= ctx.attempt >= SSF_PUSH_ATTEMPTS;
    await this.streams.recordAttempt(set.workspaceId, set.id, { status: final ? 'failed' : 'pending', error });
    this.logger.warn(`SET ${set.jti} push attempt ${ctx.attempt} failed${final ? ' (final)' : ''}: ${error}`);
    // Thrown, the job queue tries again after its backoff; a final failure is recorded and ends here.
    if (!final) throw new Error(error);
  }
}
