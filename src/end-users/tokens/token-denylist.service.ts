import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { REDIS_CLIENT, type RedisClient } from '../../common/redis.provider';

export interface DeniedToken {
  jti: string;
  expiresAt: Date;
}

const KEY = (jti: string) => `deny:${jti}`;

/**
 * Token ids refused until they would have expired anyway. Postgres is the record (written in the
 * revoking transaction); Redis, when configured, mirrors it for the per-request check. A Redis
 * failure falls back to Postgres, so a revoked token is never accepted because a cache is down.
 */
@Injectable()
export class TokenDenylistService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TokenDenylist');
  private pruneTimer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient,
  ) {}

  async deny(manager: EntityManager, workspaceId: string, tokens: DeniedToken[]): Promise<void> {
    const live = tokens.filter((t) => t.expiresAt.getTime() > this.clock.now().getTime());
    if (!live.length) return;
    await manager.query(
      `INSERT INTO token_denylist (jti, workspace_id, expires_at)
       SELECT unnest($1::text[]), $2, unnest($3::timestamptz[]) ON CONFLICT (jti) DO NOTHING`,
      [live.map((t) => t.jti), workspaceId, live.map((t) => t.expiresAt)],
    );
  }

  /** After the revoking transaction committed: copy the entries to Redis (best effort). */
  async mirror(tokens: DeniedToken[]): Promise<void> {
    if (!this.redis) return;
    const now = this.clock.now().getTime();
    try {
      const pipeline = this.redis.pipeline();
      for (const t of tokens) {
        const ttl = t.expiresAt.getTime() - now;
        if (ttl > 0) pipeline.set(KEY(t.jti), '1', 'PX', ttl);
      }
      await pipeline.exec();
    } catch (err) {
      this.logger.warn(`denylist mirror to redis failed (postgres still holds it): ${(err as Error).message}`);
    }
  }

  /**
   * The Redis fast path: true when the cache knows the id is denied, null when there is no cache or
   * it is down. A miss is not final (the mirror may have failed): the caller's session query also
   * checks token_denylist in Postgres (SESSION_LIVE_SQL), in the same round trip.
   */
  async deniedInCache(jti: string): Promise<boolean | null> {
    if (!this.redis) return null;
    try {
      return (await this.redis.exists(KEY(jti))) === 1;
    } catch {
      return null;
    }
  }

  /** Postgres check alone (used where no session query runs anyway). */
  async isDenied(jti: string): Promise<boolean> {
    if ((await this.deniedInCache(jti)) === true) return true;
    const rows = (await this.dataSource.query(`SELECT 1 FROM token_denylist WHERE jti = $1 AND expires_at > $2`, [
      jti,
      this.clock.now(),
    ])) as unknown[];
    return rows.length > 0;
  }

  /** Hourly, drop entries whose tokens have expired on their own (every instance may; it is idempotent). */
  onApplicationBootstrap(): void {
    this.pruneTimer = setInterval(
      () => {
        this.prune().catch((err: Error) => this.logger.warn(`denylist prune failed: ${err.message}`));
      },
      60 * 60 * 1000,
    );
    this.pruneTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
  }

  /** Drop entries whose tokens have expired on their own. */
  async prune(): Promise<number> {
    const result = (await this.dataSource.query(`DELETE FROM token_denylist WHERE expires_at < $1`, [this.clock.now()])) as [
      unknown,
      number,
    ];
    return result[1] ?? 0;
  }
}
