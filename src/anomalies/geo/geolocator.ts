import { isGeolocatable, unwrapV4Mapped } from './ip-scope';
import { GeoCache, GeoInfo } from './geo.types';
import { IpinfoClient } from './ipinfo.client';

export interface GeolocatorOptions {
  ttlSeconds: number;
  /** Called on every provider failure, for logs and metrics. */
  onFailure?: (ip: string, reason: string) => void;
}

export type GeoSource = 'cache' | 'provider' | 'skipped' | 'failed';

/**
 * IP -> place, through the cache. Non-public addresses are never sent out. Failures give null and
 * are not cached, so the next sign-in tries again. Never throws.
 */
export class Geolocator {
  constructor(
    private readonly client: IpinfoClient,
    private readonly cache: GeoCache,
    private readonly options: GeolocatorOptions,
  ) {}

  async locate(rawIp: string | null | undefined): Promise<{ info: GeoInfo | null; source: GeoSource }> {
    if (!isGeolocatable(rawIp)) return { info: null, source: 'skipped' };
    const ip = unwrapV4Mapped(rawIp.trim());
    const cached = await this.cache.get(ip);
    if (cached) return { info: cached, source: 'cache' };
    const outcome = await this.client.lookup(ip);
    if (!outcome.ok) {
      this.options.onFailure?.(ip, outcome.reason);
      return { info: null, source: 'failed' };
    }
    // GEO_CACHE_TTL=0 turns caching off.
    if (this.options.ttlSeconds > 0) await this.cache.set(ip, outcome.info, this.options.ttlSeconds);
    return { info: outcome.info, source: 'provider' };
  }
}
