import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { REDIS_CLIENT, type RedisClient } from '../../common/redis.provider';
import type { Tx } from '../../database/unit-of-work';
import { DeniedToken, TokenDenylistRepository } from './token-denylist.repository';

export type { DeniedToken } from './token-denylist.repository';

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
    private readonly entries: TokenDenylistRepository,
    private readonly clock: Clock,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient,
  ) {}

  /** In the revoking transaction: the token ids that have not expired yet. */
  async deny(tx: Tx, workspaceId: string, tokens: DeniedToken[]): Promise<void> {
    const now = this.clock.now().getTime();
    await this.entries.deny(
      tx,
      workspaceId,
      tokens.filter((t) => t.expiresAt.getTime() > now),
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
   * checks token_denylist in Postgres (SessionsRepository.isLive), in the same round trip.
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
    return this.entries.isDenied(jti, this.clock.now());
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
    return this.entries.prune(this.clock.now());
  }
}
