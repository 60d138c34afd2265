import { Doc } from '../api-docs/decorators';
import { ReadRoute } from '../api-docs/routes';
import { Get, Header, Inject, Optional } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { register } from 'prom-client';
import { DataSource } from 'typeorm';
import { processMetrics } from '../common/cluster-metrics';
import { REDIS_CLIENT, type RedisClient } from '../common/redis.provider';
import { LivenessSchema } from './health.schemas';
import { PublicApi } from '../common/controller-kinds';

/** Liveness, readiness (database reachable, migrations applied, Redis when configured) and Prometheus metrics. */
@PublicApi('', 'operations')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient,
  ) {}

  @Doc(
    'Liveness probe',
    'Answers while the process serves HTTP; checks no dependency, so a database outage never restarts healthy instances.',
  )
  @ReadRoute('health/live', LivenessSchema, 'The process is up')
  live() {
    return { status: 'ok' };
  }

  @Doc(
    'Readiness probe',
    'Ready when the database answers within 2 s and no migration is pending. Redis, when configured, is reported (degraded) but never fails readiness.',
  )
  @Get('health/ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.db.pingCheck('database', { timeout: 2000 }),
      () => this.migrations(),
      ...(this.redis ? [() => this.redisCheck()] : []),
    ]);
  }

  @Get('metrics')
  @ApiExcludeEndpoint()
  @Header('Content-Type', register.contentType)
  metrics(): Promise<string> {
    // Every worker's counters, summed: a scrape answered by one worker still counts the whole process.
    return processMetrics();
  }

  private async migrations() {
    const indicator = this.indicators.check('migrations');
    const pending = await this.dataSource.showMigrations().catch(() => true);
    return pending ? indicator.down({ message: 'migrations pending' }) : indicator.up();
  }

  /** Redis is optional: when it is down the service degrades to Postgres, so readiness says so without failing. */
  private async redisCheck() {
    const indicator = this.indicators.check('redis');
    let timer: NodeJS.Timeout | undefined;
    try {
      // The timer is cleared either way: a pending one would hold the process (and a test worker) open for a second.
      await Promise.race([this.redis!.ping(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 1000)))]);
      return indicator.up();
    } catch (err) {
      return indicator.up({ degraded: true, message: `redis unavailable (${(err as Error).message}); using Postgres fallbacks` });
    } finally {
      clearTimeout(timer);
    }
  }
}
