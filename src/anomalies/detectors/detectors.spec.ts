import fc from 'fast-check';
import { haversineKm } from '../haversine';
import { newDeviceDetector, newIpDetector } from './device.detectors';
import { Detector, DetectorInput, DetectorSettings, SessionFacts } from './detector.types';
import { impossibleTravelDetector, newCountryDetector } from './geo.detectors';
import { DEFAULT_DETECTORS, runDetectors } from './run-detectors';

const T0 = new Date('2026-01-10T12:00:00Z');
const hoursLater = (h: number) => new Date(T0.getTime() + h * 3_600_000);
const PARIS = { country: 'FR', city: 'Paris', latitude: 48.8566, longitude: 2.3522 };
const TOKYO = { country: 'JP', city: 'Tokyo', latitude: 35.6762, longitude: 139.6503 };
const LYON = { country: 'FR', city: 'Lyon', latitude: 45.764, longitude: 4.8357 }; // ~392 km from Paris
const VERSAILLES = { country: 'FR', city: 'Versailles', latitude: 48.8049, longitude: 2.1204 };
const NO_GEO = { country: null, city: null, latitude: null, longitude: null };

let seq = 0;
function session(over: Partial<SessionFacts> = {}): SessionFacts {
  seq += 1;
  return {
    id: `s${seq}`,
    createdAt: T0,
    ipAddress: '81.2.69.1',
    browserFamily: 'Chrome',
    osFamily: 'macOS',
    ...NO_GEO,
    ...over,
  };
}

const settings: DetectorSettings = { geoEnabled: true, impossibleTravelKmh: 800, impossibleTravelMinKm: 100 };
const input = (current: SessionFacts, prior: SessionFacts[], s: Partial<DetectorSettings> = {}): DetectorInput => ({
  current,
  prior,
  settings: { ...settings, ...s },
});
const kinds = (i: DetectorInput) => runDetectors(DEFAULT_DETECTORS, i).findings.map((f) => f.kind);

describe('first session', () => {
  it('is never flagged by any detector, whatever its facts', () => {
    expect(kinds(input(session({ ...TOKYO }), []))).toEqual([]);
  });
});

describe('new_device and new_ip', () => {
  it('does not flag the same device from the same IP', () => {
    expect(kinds(input(session({ createdAt: hoursLater(1) }), [session()]))).toEqual([]);
  });

  it('flags only new_ip for a known device from a new IP', () => {
    const found = runDetectors(DEFAULT_DETECTORS, input(session({ ipAddress: '81.2.69.2' }), [session()])).findings;
    expect(found.map((f) => f.kind)).toEqual(['new_ip']);
    expect(found[0].severity).toBe('info');
    expect(found[0].message).toContain('81.2.69.2');
  });

  it('flags new_device (warn) for a new browser, even from a known IP', () => {
    const found = runDetectors(DEFAULT_DETECTORS, input(session({ browserFamily: 'Firefox' }), [session()])).findings;
    expect(found.map((f) => f.kind)).toEqual(['new_device']);
    expect(found[0].severity).toBe('warn');
    expect(found[0].message).toMatch(/Firefox on macOS/);
  });

  it('calls it new_ip when the device family was seen from another IP, even if this IP was used by another device', () => {
    const prior = [session({ ipAddress: '1.1.1.1' }), session({ browserFamily: 'Firefox', ipAddress: '2.2.2.2' })];
    const found = runDetectors(DEFAULT_DETECTORS, input(session({ ipAddress: '2.2.2.2' }), prior)).findings;
    expect(found.map((f) => f.kind)).toEqual(['new_ip']);
    expect(found[0].message).toMatch(/not used with this device before/);
  });

  it('never yields both kinds for one login (property)', () => {
    const fact = fc.record({
      ipAddress: fc.constantFrom('1.1.1.1', '2.2.2.2', '3.3.3.3', null),
      browserFamily: fc.constantFrom('Chrome', 'Firefox'),
      osFamily: fc.constantFrom('macOS', 'Windows'),
    });
    fc.assert(
      fc.property(fact, fc.array(fact, { maxLength: 6 }), (cur, prev) => {
        const i = input(
          session(cur),
          prev.map((p) => session(p)),
          { geoEnabled: false },
        );
        const k = kinds(i);
        expect(k.filter((x) => x === 'new_device' || x === 'new_ip').length).toBeLessThanOrEqual(1);
        const seen = prev.some(
          (p) => p.ipAddress === cur.ipAddress && p.browserFamily === cur.browserFamily && p.osFamily === cur.osFamily,
        );
        if (prev.length === 0 || seen) expect(k).toEqual([]);
        else expect(k.length).toBe(1);
      }),
    );
  });
});

describe('new_country', () => {
  it('flags the first sign-in from a country (warn)', () => {
    const f = newCountryDetector.detect(input(session({ ...TOKYO }), [session({ ...PARIS })]));
    expect(f).toMatchObject({ kind: 'new_country', severity: 'warn', metadata: { country: 'JP' } });
    expect(f?.message).toContain('Japan');
  });

  it('does not flag a country seen before', () => {
    expect(newCountryDetector.detect(input(session({ ...LYON }), [session({ ...PARIS })]))).toBeNull();
  });

  it('does not flag when no prior session was geolocated (no baseline) or the current one is not', () => {
    expect(newCountryDetector.detect(input(session({ ...TOKYO }), [session()]))).toBeNull();
    expect(newCountryDetector.detect(input(session(), [session({ ...PARIS })]))).toBeNull();
  });
});

describe('impossible_travel', () => {
  const paris = () => session({ ...PARIS, createdAt: T0 });

  it('flags Paris then Tokyo one hour later (critical) with the spec metadata', () => {
    const prior = paris();
    const f = impossibleTravelDetector.detect(input(session({ ...TOKYO, createdAt: hoursLater(1) }), [prior]));
    const expected = haversineKm(PARIS, TOKYO);
    expect(f).toMatchObject({
      kind: 'impossible_travel',
      severity: 'critical',
      metadata: { from_country: 'FR', to_country: 'JP', delta_hours: 1, prior_session_id: prior.id },
    });
    expect(Math.abs((f!.metadata.distance_km as number) - expected)).toBeLessThan(expected * 0.01);
    expect(f!.metadata.speed_kmh).toBeCloseTo(expected, 0);
    expect(f!.message).toMatch(/Tokyo, Japan .*Paris, France/);
  });

  it('does not flag 200 km in one hour', () => {
    const twoHundredKmEast = { ...PARIS, longitude: PARIS.longitude + 200 / (111.32 * Math.cos((PARIS.latitude * Math.PI) / 180)) };
    expect(haversineKm(PARIS, twoHundredKmEast)).toBeCloseTo(200, -1);
    expect(impossibleTravelDetector.detect(input(session({ ...twoHundredKmEast, createdAt: hoursLater(1) }), [paris()]))).toBeNull();
  });

  it('ignores pairs closer than the minimum distance, however fast', () => {
    const current = session({ ...VERSAILLES, createdAt: new Date(T0.getTime() + 1000) });
    expect(impossibleTravelDetector.detect(input(current, [paris()]))).toBeNull();
    expect(impossibleTravelDetector.detect(input(current, [paris()], { impossibleTravelMinKm: 1 }))).not.toBeNull();
  });

  it('uses the most recent prior session with coordinates, not the most recent session', () => {
    const lyon = session({ ...LYON, createdAt: hoursLater(-2) });
    const recentNoGeo = session({ createdAt: hoursLater(0.5) });
    const p = paris();
    const f = impossibleTravelDetector.detect(input(session({ ...TOKYO, createdAt: hoursLater(1) }), [lyon, recentNoGeo, p]));
    expect(f?.metadata.prior_session_id).toBe(p.id);
  });

  it('ignores prior sessions older than 24 hours', () => {
    expect(impossibleTravelDetector.detect(input(session({ ...TOKYO, createdAt: hoursLater(25) }), [paris()]))).toBeNull();
  });

  it('honours the configured speed threshold', () => {
    const current = session({ ...TOKYO, createdAt: hoursLater(13) }); // ~747 km/h
    expect(impossibleTravelDetector.detect(input(current, [paris()]))).toBeNull();
    expect(impossibleTravelDetector.detect(input(current, [paris()], { impossibleTravelKmh: 500 }))).not.toBeNull();
  });

  it('does not divide by zero for two sign-ins in the same instant', () => {
    const f = impossibleTravelDetector.detect(input(session({ ...TOKYO, createdAt: T0 }), [paris()]));
    expect(Number.isFinite(f!.metadata.speed_kmh)).toBe(true);
  });
});

describe('runDetectors', () => {
  it('skips the geo detectors when geolocation is off, and the others still work', () => {
    const run = runDetectors(
      DEFAULT_DETECTORS,
      input(session({ ...TOKYO, createdAt: hoursLater(1), browserFamily: 'Firefox' }), [session({ ...PARIS })], {
        geoEnabled: false,
      }),
    );
    expect(run.findings.map((f) => f.kind)).toEqual(['new_device']);
    expect(run.skipped).toEqual(['new_country', 'impossible_travel']);
  });

  it('keeps the other detectors results when one throws', () => {
    const broken: Detector = {
      kind: 'new_country',
      needsGeo: true,
      detect: () => {
        throw new Error('boom');
      },
    };
    const detectors = [newDeviceDetector, newIpDetector, broken, impossibleTravelDetector];
    const run = runDetectors(
      detectors,
      input(session({ ...TOKYO, createdAt: hoursLater(1), ipAddress: '9.9.9.9' }), [session({ ...PARIS })]),
    );
    expect(run.findings.map((f) => f.kind)).toEqual(['new_ip', 'impossible_travel']);
    expect(run.failures.map((f) => f.kind)).toEqual(['new_country']);
  });
});
