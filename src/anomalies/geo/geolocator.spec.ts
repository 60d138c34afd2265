import { GeoStub } from '../../../test/support/geo-stub';
import { Geolocator } from './geolocator';
import { IpinfoClient, parseIpinfo } from './ipinfo.client';
import { MemoryGeoCache } from './memory-geo.cache';

const PARIS_IP = '81.2.69.160';
const PARIS = { country: 'FR', city: 'Paris', loc: '48.8566,2.3522' };

describe('parseIpinfo', () => {
  it('reads country, city and loc', () => {
    expect(parseIpinfo({ ip: PARIS_IP, ...PARIS, region: 'IDF' })).toEqual({
      country: 'FR',
      city: 'Paris',
      latitude: 48.8566,
      longitude: 2.3522,
    });
  });

  it('drops malformed fields instead of failing', () => {
    expect(parseIpinfo({ country: 'France', city: '', loc: 'abc,def' })).toEqual({
      country: null,
      city: null,
      latitude: null,
      longitude: null,
    });
    expect(parseIpinfo({ loc: '91,10' }).latitude).toBeNull();
    expect(parseIpinfo({ loc: ',10' }).latitude).toBeNull();
    expect(parseIpinfo({ bogon: true })).toEqual({ country: null, city: null, latitude: null, longitude: null });
    expect(parseIpinfo(null).country).toBeNull();
    expect(parseIpinfo('text').country).toBeNull();
  });

  it('upper-cases the country code', () => {
    expect(parseIpinfo({ country: 'jp' }).country).toBe('JP');
  });
});

describe('Geolocator against the stub provider', () => {
  let stub: GeoStub;
  const failures: string[] = [];
  const make = (timeoutMs = 2500) =>
    new Geolocator(new IpinfoClient({ apiUrl: stub.url, token: 'tok123', timeoutMs }), new MemoryGeoCache(), {
      ttlSeconds: 60,
      onFailure: (_ip, reason) => failures.push(reason),
    });

  beforeAll(async () => {
    stub = await GeoStub.start();
  });
  afterEach(() => {
    stub.reset();
    failures.length = 0;
  });
  afterAll(() => stub.close());

  it('calls {GEO_API_URL}/{ip}?token= and reads the answer', async () => {
    stub.answer(PARIS_IP, PARIS);
    const r = await make().locate(PARIS_IP);
    expect(r).toEqual({ source: 'provider', info: { country: 'FR', city: 'Paris', latitude: 48.8566, longitude: 2.3522 } });
    expect(stub.calls).toEqual([expect.objectContaining({ ip: PARIS_IP, token: 'tok123' })]);
  });

  it('serves the second lookup from the cache', async () => {
    stub.answer(PARIS_IP, PARIS);
    const geo = make();
    await geo.locate(PARIS_IP);
    const again = await geo.locate(PARIS_IP);
    expect(again.source).toBe('cache');
    expect(again.info?.city).toBe('Paris');
    expect(stub.callsFor(PARIS_IP)).toBe(1);
  });

  it('never sends private, loopback, link-local, CGNAT or ULA addresses', async () => {
    const geo = make();
    for (const ip of [
      '10.0.0.1',
      '127.0.0.1',
      '169.254.1.1',
      '100.64.1.1',
      '192.168.0.2',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(await geo.locate(ip)).toEqual({ info: null, source: 'skipped' });
    }
    expect(stub.calls).toHaveLength(0);
  });

  it('looks up the IPv4 address inside an IPv4-mapped IPv6 address', async () => {
    stub.answer(PARIS_IP, PARIS);
    expect((await make().locate(`::ffff:${PARIS_IP}`)).info?.country).toBe('FR');
    expect(stub.callsFor(PARIS_IP)).toBe(1);
  });

  it('gives up after the timeout with null, and does not cache the failure', async () => {
    stub.answer(PARIS_IP, PARIS).hang(2000);
    const geo = make(150);
    const started = Date.now();
    expect(await geo.locate(PARIS_IP)).toEqual({ info: null, source: 'failed' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(failures).toEqual(['timeout']);
    stub.hang(0);
    expect((await geo.locate(PARIS_IP)).source).toBe('provider');
  });

  it('returns null on provider errors and garbage bodies', async () => {
    stub.answer('8.8.8.8', { status: 500, body: 'oops' });
    stub.answer('8.8.4.4', { status: 200, body: '<html>' });
    const geo = make();
    expect((await geo.locate('8.8.8.8')).info).toBeNull();
    expect((await geo.locate('8.8.4.4')).info).toBeNull();
    expect((await geo.locate('1.1.1.1')).info).toBeNull(); // stub 404
    expect(failures).toHaveLength(3);
  });

  it('returns null when the provider cannot be reached', async () => {
    const geo = new Geolocator(new IpinfoClient({ apiUrl: 'http://127.0.0.1:1', token: 't', timeoutMs: 1000 }), new MemoryGeoCache(), {
      ttlSeconds: 60,
    });
    expect(await geo.locate(PARIS_IP)).toEqual({ info: null, source: 'failed' });
  });
});
