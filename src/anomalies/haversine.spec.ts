import fc from 'fast-check';
import { EARTH_RADIUS_KM, haversineKm, isValidLatLon, LatLon } from './haversine';

const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const TOKYO = { latitude: 35.6762, longitude: 139.6503 };
const LONDON = { latitude: 51.5074, longitude: -0.1278 };

const point = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('haversineKm', () => {
  it('gives the known Paris-Tokyo distance (about 9,710 km)', () => {
    expect(haversineKm(PARIS, TOKYO)).toBeGreaterThan(9680);
    expect(haversineKm(PARIS, TOKYO)).toBeLessThan(9740);
  });

  it('gives the known Paris-London distance (about 344 km)', () => {
    expect(haversineKm(PARIS, LONDON)).toBeCloseTo(344, -1);
  });

  it('is zero for the same point and half the circumference for antipodes', () => {
    expect(haversineKm(PARIS, PARIS)).toBe(0);
    expect(haversineKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 6);
    expect(haversineKm({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 })).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 6);
  });

  it('crosses the antimeridian the short way', () => {
    const d = haversineKm({ latitude: 0, longitude: 179.5 }, { latitude: 0, longitude: -179.5 });
    expect(d).toBeCloseTo((Math.PI * EARTH_RADIUS_KM) / 180, 3);
  });

  it('is symmetric, non-negative and bounded by half the circumference', () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        const d = haversineKm(a, b);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.PI * EARTH_RADIUS_KM + 1e-6);
        expect(Math.abs(d - haversineKm(b, a))).toBeLessThan(1e-6);
      }),
    );
  });

  it('satisfies the triangle inequality', () => {
    fc.assert(
      fc.property(point, point, point, (a: LatLon, b: LatLon, c: LatLon) => {
        // 1 m of slack: near antipodal points rounding in asin() of a value close to 1 costs millimetres (seen: 4 mm).
        expect(haversineKm(a, c)).toBeLessThanOrEqual(haversineKm(a, b) + haversineKm(b, c) + 1e-3);
      }),
    );
  });

  it('matches arc length along a meridian', () => {
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }), (l1, l2) => {
        const d = haversineKm({ latitude: l1, longitude: 10 }, { latitude: l2, longitude: 10 });
        expect(d).toBeCloseTo((Math.abs(l1 - l2) * Math.PI * EARTH_RADIUS_KM) / 180, 3);
      }),
    );
  });
});

describe('isValidLatLon', () => {
  it('accepts real coordinates and refuses null, NaN and out-of-range values', () => {
    expect(isValidLatLon(PARIS)).toBe(true);
    expect(isValidLatLon({ latitude: null, longitude: 2 })).toBe(false);
    expect(isValidLatLon({ latitude: NaN, longitude: 2 })).toBe(false);
    expect(isValidLatLon({ latitude: 91, longitude: 2 })).toBe(false);
    expect(isValidLatLon({ latitude: 10, longitude: -181 })).toBe(false);
  });
});
