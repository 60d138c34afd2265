import { randomBytes } from 'node:crypto';
import { repositoriesForSuite } from '../../../test/support/repository';
import { GeoCacheRepository } from './geo-cache.repository';

/** A documentation address (RFC 3849) of its own per test, so runs on the same database do not meet. */
const anAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

describe('GeoCacheRepository', () => {
  let cache: GeoCacheRepository;
  const db = repositoriesForSuite([GeoCacheRepository], (booted) => (cache = booted));

  it('answers a stored place until it expires, and a miss for an address never stored', async () => {
    const ip = anAddress();
    const place = { country: 'DE', city: 'Berlin', latitude: 52.52, longitude: 13.405 };
    expect(await cache.get(ip)).toBeUndefined();
    await cache.set(ip, place, 3600);
    expect(await cache.get(ip)).toEqual(place);
  });

  it('replaces the place of an address stored again', async () => {
    const ip = anAddress();
    await cache.set(ip, { country: 'FR', city: 'Paris', latitude: 48.85, longitude: 2.35 }, 3600);
    await cache.set(ip, { country: 'FR', city: 'Lyon', latitude: 45.76, longitude: 4.83 }, 3600);
    expect((await cache.get(ip))?.city).toBe('Lyon');
  });

  it('treats an expired row as a miss', async () => {
    const ip = anAddress();
    await cache.set(ip, { country: 'IT', city: null, latitude: null, longitude: null }, 60);
    await db.dataSource.query(`UPDATE geo_cache SET expires_at = now() - interval '1 second' WHERE ip = $1`, [ip]);
    expect(await cache.get(ip)).toBeUndefined();
  });
});
