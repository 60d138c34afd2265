import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { anomalyRunFailures, detectionDuration } from '../anomaly.metrics';
import { AnomalyDetectionService, LoginSuccess } from './anomaly-detection.service';

/** Checks running at once: enough to keep up, few enough to leave pool connections to requests. */
const MAX_CONCURRENT = 2;
/** Beyond this many waiting checks (a login storm), new ones are dropped and counted, not queued. */
const MAX_QUEUED = 10_000;

/**
 * Listens to login_success and runs the anomaly check off the request path: the sign-in has
 * already answered when the check starts, and nothing here can fail or slow it (spec D).
 */
@Injectable()
export class AnomalyListener implements OnApplicationShutdown {
  private readonly logger = new Logger('AnomalyListener');
  private readonly queue: LoginSuccess[] = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly detection: AnomalyDetectionService,
  ) {}

  @OnEvent('login_success', { async: true, suppressErrors: true })
  onLoginSuccess(event: LoginSuccess): void {
    if (!this.config.ANOMALY_DETECTION_ENABLED) return;
    if (this.queue.length >= MAX_QUEUED) {
      anomalyRunFailures.inc({ stage: 'dropped' });
      this.logger.error(`anomaly check queue full; session ${event.session.id} (request ${event.request.requestId}) not checked`);
      return;
    }
    this.queue.push(event);
    // setImmediate: start after the current I/O turn, i.e. after the sign-in response is written.
    setImmediate(() => this.pump());
  }

  /** Resolves once every queued and running check has finished (tests, graceful shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  private pump(): void {
    while (this.running < MAX_CONCURRENT && this.queue.length > 0) {
      const event = this.queue.shift()!;
      this.running++;
      void this.check(event).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) this.idleWaiters.splice(0).forEach((w) => w());
      });
    }
  }

  private async check(event: LoginSuccess): Promise<void> {
    const stop = detectionDuration.startTimer();
    try {
      await this.detection.process(event);
    } catch (err) {
      anomalyRunFailures.inc({ stage: 'process' });
      this.logger.error(
        `anomaly check of session ${event.session.id} (request ${event.request.requestId}) failed: ${(err as Error)?.message ?? err}`,
      );
    } finally {
      stop();
    }
  }
}
