import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { sha256Hex } from '../crypto/tokens';
import { DomainError } from '../errors';
import { REDIS_CLIENT, type RedisClient } from '../redis.provider';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { COMMON_ERRORS } from '../common.errors';
import { ScriptCachedThrottlerStorage } from './script-cached-throttler-storage';

export type RateLimitedAction = 'login' | 'mfa' | 'register' | 'verify' | 'resend' | 'reset' | 'saml_sso';

const WINDOW_MS = 60_000;

/**
 * Per-IP and per-account fixed-window counters for the sign-in endpoints, kept in @nestjs/throttler's
 * storage: Redis (shared by every instance) when REDIS_URL is set, else process memory. If Redis
 * fails the check falls back to memory rather than letting every request through or failing them.
 */
@Injectable()
export class AuthRateLimiter implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly memory = new ThrottlerStorageService();
  private readonly shared?: ThrottlerStorage;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(REDIS_CLIENT) redis?: RedisClient,
  ) {
    if (redis) this.shared = new ScriptCachedThrottlerStorage(redis);
  }

  /** Count one attempt; throws rate_limited (429 with Retry-After) when either limit is exceeded. */
  async hit(action: RateLimitedAction, ip: string, account: string | null): Promise<void> {
    await this.check(`rl:${action}:ip:${ip}`, this.ipLimit(action), action);
    if (account) await this.check(`rl:${action}:acct:${sha256Hex(account)}`, this.config.RATE_LIMIT_ACCOUNT_PER_MINUTE, action);
  }

  /** Count one attempt against an account only (the route's guard already counted the IP). */
  async hitAccount(action: RateLimitedAction, account: string): Promise<void> {
    await this.check(`rl:${action}:acct:${sha256Hex(account)}`, this.config.RATE_LIMIT_ACCOUNT_PER_MINUTE, action);
  }

  /** SAML SSO has its own per-address budget: one sign-in there is two or three requests (start, finish). */
  private ipLimit(action: RateLimitedAction): number {
    return action === 'saml_sso' ? this.config.RATE_LIMIT_SAML_SSO_PER_MINUTE : this.config.RATE_LIMIT_AUTH_PER_MINUTE;
  }

  private async check(key: string, limit: number, action: string): Promise<void> {
    const record = await this.increment(key, limit, action);
    if (record.isBlocked) {
      throw new DomainError(COMMON_ERRORS.rate_limited, 'Too many attempts; wait a moment and try again', {
        retryAfterSeconds: Math.max(1, record.timeToBlockExpire || record.timeToExpire),
      });
    }
  }

  private async increment(key: string, limit: number, action: string) {
    if (this.shared) {
      try {
        return await this.shared.increment(key, WINDOW_MS, limit, WINDOW_MS, action);
      } catch (err) {
        this.logger.warn(`redis rate-limit storage failed, using memory: ${(err as Error).message}`);
      }
    }
    return this.memory.increment(key, WINDOW_MS, limit, WINDOW_MS, action);
  }

  onApplicationShutdown(): void {
    this.memory.onApplicationShutdown();
  }
}
