import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { databaseUrl, workerDatabaseName } from '../../../test/support/databases';
import { GEO_CACHE_DDL } from '../../database/migrations/1763700500000-Anomalies';
import { GeoCacheEntry } from '../entities/geo-cache-entry.entity';
import { GeoCacheRepository } from './geo-cache.repository';
import { GeoCache } from './geo.types';
import { MemoryGeoCache } from './memory-geo.cache';
import { RedisGeoCache } from './redis-geo.cache';

/* The two production caches are checked against the real Redis and Postgres of the dev machine. */

const TOKYO = { country: 'JP', city: 'Tokyo', latitude: 35.6762, longitude: 139.6503 };
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// This worker's database (the repository project's global setup makes it); the suite works in a schema of its own.
const PG_URL = process.env.GEO_CACHE_TEST_DATABASE_URL ?? databaseUrl(workerDatabaseName());
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function behavesLikeAGeoCache(name: string, make: () => GeoCache) {
  describe(`${name} (shared behaviour)`, () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    it('misses, then returns what was stored', async () => {
      const cache = make();
      expect(await cache.get(ip)).toBeUndefined();
      await cache.set(ip, TOKYO, 60);
      expect(await cache.get(ip)).toEqual(TOKYO);
    });

    it('keeps a "provider knows nothing" answer as a hit with null fields', async () => {
      const cache = make();
      const empty = { country: null, city: null, latitude: null, longitude: null };
      await cache.set(`${ip}9`, empty, 60);
      expect(await cache.get(`${ip}9`)).toEqual(empty);
    });

    it('forgets entries after their TTL', async () => {
      const cache = make();
      await cache.set(`${ip}8`, TOKYO, 1);
      await wait(1300);
      expect(await cache.get(`${ip}8`)).toBeUndefined();
    });
  });
}

describe('RedisGeoCache', () => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const prefix = `geo:test:${process.pid}:${Date.now()}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  behavesLikeAGeoCache('Redis', () => new RedisGeoCache(redis, prefix));

  it('sets the TTL on the key', async () => {
    await new RedisGeoCache(redis, prefix).set('198.51.100.1', TOKYO, 86400);
    const ttl = await redis.ttl(`${prefix}198.51.100.1`);
    expect(ttl).toBeGreaterThan(86000);
    expect(ttl).toBeLessThanOrEqual(86400);
  });

  it('treats an unreachable Redis as a miss instead of failing', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      // disconnect() after the refused connection arms a timer for a socket already closed (2 s by default,
      // which kept the Jest worker alive past its exit).
      disconnectTimeout: 50,
    });
    const cache = new RedisGeoCache(dead);
    await expect(cache.set('198.51.100.2', TOKYO, 60)).resolves.toBeUndefined();
    await expect(cache.get('198.51.100.2')).resolves.toBeUndefined();
    dead.disconnect();
  });
});

describe('GeoCacheRepository (Postgres)', () => {
  const schema = `geo_cache_test_${process.pid}_${Date.now()}`;
  /** A data source whose connections see only `searchPath` (the table of another schema is not found). */
  const connect = (searchPath: string) =>
    new DataSource({
      type: 'postgres',
      url: PG_URL,
      entities: [GeoCacheEntry],
      extra: { max: 2, options: `-c search_path=${searchPath}` },
    }).initialize();
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await connect(schema);
    await dataSource.query(`CREATE SCHEMA ${schema}`);
    // The migration's own DDL, so the schema the app runs against is the one tested here.
    for (const ddl of GEO_CACHE_DDL) await dataSource.query(ddl);
  });
  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  behavesLikeAGeoCache('Postgres', () => new GeoCacheRepository(dataSource.getRepository(GeoCacheEntry)));

  it('overwrites an entry and extends its expiry', async () => {
    const cache = new GeoCacheRepository(dataSource.getRepository(GeoCacheEntry));
    await cache.set('198.51.100.3', { ...TOKYO, city: 'Osaka' }, 60);
    await cache.set('198.51.100.3', TOKYO, 3600);
    expect(await cache.get('198.51.100.3')).toEqual(TOKYO);
  });

  it('treats a database error as a miss instead of failing', async () => {
    const elsewhere = await connect(`${schema}_absent`);
    try {
      const broken = new GeoCacheRepository(elsewhere.getRepository(GeoCacheEntry));
      await expect(broken.set('198.51.100.4', TOKYO, 60)).resolves.toBeUndefined();
      await expect(broken.get('198.51.100.4')).resolves.toBeUndefined();
    } finally {
      await elsewhere.destroy();
    }
  });
});

describe('MemoryGeoCache', () => {
  behavesLikeAGeoCache('Memory', () => new MemoryGeoCache());

  it('evicts the oldest entry beyond its bound', async () => {
    const cache = new MemoryGeoCache(2);
    await cache.set('a', TOKYO, 60);
    await cache.set('b', TOKYO, 60);
    await cache.set('c', TOKYO, 60);
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('c')).toEqual(TOKYO);
  });
});
