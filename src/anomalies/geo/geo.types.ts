/** What a lookup tells about an IP. Every field may be null: providers often know only the country. */
export interface GeoInfo {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** A cache of lookups by IP. Implementations never throw: a broken cache is a miss. */
export interface GeoCache {
  /** The cached answer, or undefined on a miss (null fields are a cached "provider knows nothing"). */
  get(ip: string): Promise<GeoInfo | undefined>;
  set(ip: string, info: GeoInfo, ttlSeconds: number): Promise<void>;
}

export const EMPTY_GEO: GeoInfo = Object.freeze({ country: null, city: null, latitude: null, longitude: null });
