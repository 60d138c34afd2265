import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Raw, Repository } from 'typeorm';
import { GeoCacheEntry } from '../entities/geo-cache-entry.entity';
import { decodeGeo } from './geo-codec';
import { GeoCache, GeoInfo } from './geo.types';

/** One in this many writes also deletes expired rows, so the table does not grow without bound. */
const PRUNE_EVERY = 200;

/** Compared with the database's clock, as the expiry was set with it. */
const notExpired = Raw((column) => `${column} > now()`);
const expired = Raw((column) => `${column} <= now()`);

/**
 * Geolocation cache in Postgres (table geo_cache), used when REDIS_URL is not set. IP -> place is
 * public knowledge, not tenant data, so the table is shared across workspaces (decision 0403).
 * Errors are misses, never failures.
 */
@Injectable()
export class GeoCacheRepository implements GeoCache {
  private writes = 0;

  constructor(@InjectRepository(GeoCacheEntry) private readonly entries: Repository<GeoCacheEntry>) {}

  async get(ip: string): Promise<GeoInfo | undefined> {
    try {
      const entry = await this.entries.findOne({ select: { data: true }, where: { ip, expiresAt: notExpired } });
      return entry ? decodeGeo(entry.data) : undefined;
    } catch {
      return undefined;
    }
  }

  async set(ip: string, info: GeoInfo, ttlSeconds: number): Promise<void> {
    const seconds = Math.max(1, Math.floor(ttlSeconds));
    try {
      await this.entries.upsert({ ip, data: info, expiresAt: () => `now() + make_interval(secs => ${seconds})` }, ['ip']);
      if (++this.writes % PRUNE_EVERY === 0) await this.entries.delete({ expiresAt: expired });
    } catch {
      // a cache that cannot store is only slower
    }
  }
}
