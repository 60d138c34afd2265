import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { RedisClient } from '../redis.provider';

const COMMAND = 'throttlerIncrement';

type Increment = (
  hitKey: string,
  blockKey: string,
  throttlerName: string,
  ttl: number,
  limit: number,
  blockDuration: number,
) => Promise<unknown>;

/**
 * @nest-lab/throttler-storage-redis with its own Lua script, sent by digest: the library calls
 * `EVAL <script>` on every hit, so each sign-in attempt wrote ~900 bytes and Redis hashed them
 * again. Defined once as an ioredis command, the script goes as `EVALSHA` (ioredis loads it on the
 * first NOSCRIPT), with the library's keys and its answer (decision 0328).
 */
export class ScriptCachedThrottlerStorage extends ThrottlerStorageRedisService {
  private readonly incrementScript: Increment;

  constructor(redis: RedisClient) {
    super(redis);
    if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 2, lua: this.scriptSrc });
    const command = (redis as unknown as Record<string, Increment>)[COMMAND];
    this.incrementScript = command.bind(redis);
  }

  override async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const scope = `{${key}:${throttlerName}}`;
    const results = await this.incrementScript(`${scope}:hits`, `${scope}:blocked`, throttlerName, ttl, limit, blockDuration);
    if (!Array.isArray(results) || results.length !== 4 || results.some((n) => typeof n !== 'number')) {
      throw new TypeError(`rate-limit script answered ${JSON.stringify(results)}`);
    }
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = results as number[];
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}
