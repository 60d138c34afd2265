import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { CredentialCache, notifyCredentialsRevoked, type RevocationNotice } from '../../common/auth/credential-cache';
import { Clock } from '../../common/clock';
import { REDIS_CLIENT, type RedisClient } from '../../common/redis.provider';
import type { Tx } from '../../database/unit-of-work';
import { DeniedToken, TokenDenylistRepository } from './token-denylist.repository';

export type { DeniedToken } from './token-denylist.repository';

const KEY = (jti: string) => `deny:${jti}`;

/**
 * The credential cache's revocation key of a session: every cached view of an access token issued for it
 * (an application's grant read by UserInfo and introspection, decision 0961) carries it as a tag.
 */
export const sessionCacheTag = (sessionId: string): string => `end-user-session:${sessionId}`;

/**
 * Token ids refused until they would have expired anyway. Postgres is the record (written in the
 * revoking transaction); Redis, when configured, mirrors it for the per-request check. A Redis
 * failure falls back to Postgres, so a revoked token is never accepted because a cache is down.
 * Denying also tells every instance's credential cache to drop the views cached for those tokens'
 * sessions (NOTIFY in the revoking transaction; `mirror` waits, after commit, until every listener
 * has evicted them), so a revoked token's cached view is served nowhere once the revocation is answered.
 */
@Injectable()
export class TokenDenylistService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TokenDenylist');
  private pruneTimer?: NodeJS.Timeout;
  constructor(
    private readonly entries: TokenDenylistRepository,
    private readonly clock: Clock,
    private readonly cache: CredentialCache,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient,
  ) {}

  /**
   * In the revoking transaction: the token ids that have not expired yet go on the denylist, and every instance's
   * credential cache is told to drop their sessions' views. Answers the tokens to hand to `mirror` after commit,
   * each carrying the notice of its session.
   */
  async deny(tx: Tx, workspaceId: string, tokens: DeniedToken[]): Promise<DeniedToken[]> {
    const now = this.clock.now().getTime();
    const live = tokens.filter((t) => t.expiresAt.getTime() > now);
    await this.entries.deny(tx, workspaceId, live);
    const sessions = [...new Set(live.map((t) => t.sessionId))];
    const notices = new Map((await notifyCredentialsRevoked(tx, sessions.map(sessionCacheTag))).map((n) => [n.key, n]));
    return tokens.map((t) => ({ ...t, notice: notices.get(sessionCacheTag(t.sessionId)) }));
  }

  /** After the revoking transaction committed: copy the entries to Redis (best effort). */
  async mirror(tokens: DeniedToken[]): Promise<void> {
    const notices = new Set(tokens.map((t) => t.notice).filter((n): n is RevocationNotice => n !== undefined));
    await Promise.all([...notices].map((notice) => this.cache.evictEverywhere(notice)));
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
