import { GeoCache, GeoInfo } from './geo.types';

/** In-process cache for tests and single-process tools; bounded so it cannot grow without limit. */
export class MemoryGeoCache implements GeoCache {
  private readonly entries = new Map<string, { info: GeoInfo; expiresAt: number }>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(ip: string): Promise<GeoInfo | undefined> {
    const e = this.entries.get(ip);
    if (!e || e.expiresAt <= this.now()) {
      this.entries.delete(ip);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(e.info);
  }

  set(ip: string, info: GeoInfo, ttlSeconds: number): Promise<void> {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(ip, { info, expiresAt: this.now() + ttlSeconds * 1000 });
    return Promise.resolve();
  }
}
