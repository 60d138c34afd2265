import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

/** The Redis every test app uses (baseTestEnv). */
export const TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** Set by global setup for the whole run (workers inherit it); a file run without it gets its own. */
const RUN_ID = (process.env.TEST_REDIS_RUN_ID ??= randomUUID());

/**
 * A fresh REDIS_KEY_PREFIX for one test app, under this run's own prefix (`test:<run>:<app>:`), so apps
 * never share keys and global teardown deletes every key the run wrote, whatever its TTL.
 */
export function testRedisPrefix(): string {
  return `${runRedisPrefix()}${randomUUID()}:`;
}

export function runRedisPrefix(runId = RUN_ID): string {
  return `test:${runId}:`;
}

/** Deletes every key under the prefix (SCAN + UNLINK in batches, never KEYS); answers how many. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/**
 * Redis clients for one describe block, all under one fresh key prefix: the answer makes one more;
 * afterAll deletes the block's keys and closes its clients.
 */
export function redisClientsForSuite(): () => Redis {
  const prefix = testRedisPrefix();
  const clients: Redis[] = [];
  afterAll(async () => {
    await deleteRedisKeys(TEST_REDIS_URL, prefix);
    await Promise.all(clients.map((c) => c.quit()));
  });
  return () => {
    const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };
}
