import { GeoCache, GeoInfo } from './geo.types';
import { decodeGeo } from './geo-codec';

/** The slice of TypeORM's DataSource (or a pg pool adapter) this cache needs. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown[]>;
}

/** One in this many writes also deletes expired rows, so the table does not grow without bound. */
const PRUNE_EVERY = 200;

/**
 * Geolocation cache in Postgres (table geo_cache), used when REDIS_URL is not set. IP -> place is
 * public knowledge, not tenant data, so the table is shared across workspaces (decision 0403).
 * Errors are misses, never failures.
 */
export class PostgresGeoCache implements GeoCache {
  private writes = 0;

  constructor(private readonly db: SqlRunner) {}

  async get(ip: string): Promise<GeoInfo | undefined> {
    try {
      const rows = (await this.db.query('SELECT data FROM geo_cache WHERE ip = $1 AND expires_at > now()', [ip])) as {
        data: unknown;
      }[];
      return rows.length ? decodeGeo(rows[0].data) : undefined;
    } catch {
      return undefined;
    }
  }

  async set(ip: string, info: GeoInfo, ttlSeconds: number): Promise<void> {
    try {
      await this.db.query(
        `INSERT INTO geo_cache (ip, data, expires_at) VALUES ($1, $2::jsonb, now() + make_interval(secs => $3))
         ON CONFLICT (ip) DO UPDATE SET data = EXCLUDED.data, expires_at = EXCLUDED.expires_at`,
        [ip, JSON.stringify(info), Math.max(1, Math.floor(ttlSeconds))],
      );
      if (++this.writes % PRUNE_EVERY === 0) await this.db.query('DELETE FROM geo_cache WHERE expires_at <= now()');
    } catch {
      // a cache that cannot store is only slower
    }
  }
}
