import { Logger, Provider } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/config';

export type RedisClient = Redis;
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/**
 * Shared Redis connection when REDIS_URL is set (undefined otherwise). Commands
 * fail fast while Redis is down so callers can fall back to Postgres.
 */
export const redisProvider: Provider = {
  provide: REDIS_CLIENT,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): Redis | undefined => {
    if (!config.REDIS_URL) return undefined;
    const client = new Redis(config.REDIS_URL, {
      keyPrefix: config.REDIS_KEY_PREFIX,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
    });
    const logger = new Logger('Redis');
    client.on('error', (err: Error) => logger.warn(`redis error: ${err.message}`));
    return client;
  },
};
