import type Redis from 'ioredis';
import { GeoCache, GeoInfo } from './geo.types';
import { decodeGeo } from './geo-codec';

/**
 * Geolocation cache in Redis (used when REDIS_URL is set): one key per IP with a TTL, shared by all
 * instances. Redis errors are misses, never failures: the sign-in path must not depend on Redis.
 */
export class RedisGeoCache implements GeoCache {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'geo:v1:',
  ) {}

  async get(ip: string): Promise<GeoInfo | undefined> {
    try {
      const raw = await this.redis.get(this.keyPrefix + ip);
      return raw === null ? undefined : decodeGeo(raw);
    } catch {
      return undefined;
    }
  }

  async set(ip: string, info: GeoInfo, ttlSeconds: number): Promise<void> {
    try {
      await this.redis.set(this.keyPrefix + ip, JSON.stringify(info), 'EX', Math.max(1, Math.floor(ttlSeconds)));
    } catch {
      // a cache that cannot store is only slower
    }
  }
}
