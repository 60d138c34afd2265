import { Logger, Provider } from '@nestjs/common';
import { REDIS_CLIENT, RedisClient } from '../../common/redis.provider';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { GeoCache } from './geo.types';
import { Geolocator } from './geolocator';
import { IpinfoClient } from './ipinfo.client';
import { GeoCacheRepository } from './geo-cache.repository';
import { RedisGeoCache } from './redis-geo.cache';

export const GEOLOCATOR = Symbol('GEOLOCATOR');

/**
 * The geolocator, or null when GEO_TOKEN is unset (spec D: geo detectors are then off). The cache
 * lives in Redis when REDIS_URL is set (shared by all instances), else in Postgres.
 */
export const geolocatorProvider: Provider = {
  provide: GEOLOCATOR,
  inject: [APP_CONFIG, GeoCacheRepository, { token: REDIS_CLIENT, optional: true }],
  useFactory: (config: AppConfig, postgresCache: GeoCacheRepository, redis?: RedisClient): Geolocator | null => {
    if (!config.GEO_TOKEN) return null;
    const logger = new Logger('Geolocation');
    // The shared client already prefixes keys with REDIS_KEY_PREFIX.
    const cache: GeoCache = redis ? new RedisGeoCache(redis, 'geo:v1:') : postgresCache;
    const client = new IpinfoClient({ apiUrl: config.GEO_API_URL, token: config.GEO_TOKEN, timeoutMs: config.GEO_TIMEOUT_MS });
    return new Geolocator(client, cache, {
      ttlSeconds: config.GEO_CACHE_TTL,
      // The IP is personal data and the URL holds the token: log neither.
      onFailure: (_ip, reason) => logger.warn(`geolocation lookup failed: ${reason}`),
    });
  },
};
