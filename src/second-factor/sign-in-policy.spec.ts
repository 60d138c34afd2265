import { decide, GeoFacts, Policy } from './sign-in-policy';

describe('sign-in policy decision', () => {
  const policy: Policy = { new_device: 'challenge', new_ip: 'block', new_country: 'allow', impossible_travel: 'allow' };
  const allowAll: Policy = { new_device: 'allow', new_ip: 'allow', new_country: 'allow', impossible_travel: 'allow' };
  const seen = { anySession: true, pairSeen: true, tripleSeen: true };
  const now = new Date('2026-11-26T12:00:00Z');
  const paris = { country: 'FR', city: 'Paris', latitude: 48.8566, longitude: 2.3522 };
  const sydney = { country: 'AU', city: 'Sydney', latitude: -33.8688, longitude: 151.2093 };

  it('allows everything without a policy (the default)', () => {
    expect(decide(null, { anySession: true, pairSeen: false, tripleSeen: false })).toEqual({ action: 'allow', kinds: [] });
  });

  it('never acts on the first session of a user, nor on a seen device and address', () => {
    expect(decide(policy, { anySession: false, pairSeen: false, tripleSeen: false }).action).toBe('allow');
    expect(decide(policy, seen).action).toBe('allow');
  });

  it('applies the policy of the device kind the detectors would report', () => {
    expect(decide(policy, { anySession: true, pairSeen: false, tripleSeen: false })).toEqual({
      action: 'challenge',
      kinds: ['new_device'],
    });
    expect(decide(policy, { anySession: true, pairSeen: true, tripleSeen: false })).toEqual({ action: 'block', kinds: ['new_ip'] });
    expect(decide(allowAll, { anySession: true, pairSeen: false, tripleSeen: false }).action).toBe('allow');
  });

  it('acts on a new country only against a geolocated baseline, by the detector’s rule', () => {
    const geoPolicy: Policy = { ...allowAll, new_country: 'challenge' };
    const fromSydney: GeoFacts = { current: sydney, knownCountries: ['FR'], lastPlace: null };
    expect(decide(geoPolicy, seen, fromSydney, now)).toEqual({ action: 'challenge', kinds: ['new_country'] });
    expect(decide(geoPolicy, seen, { ...fromSydney, knownCountries: ['FR', 'AU'] }, now).action).toBe('allow');
    expect(decide(geoPolicy, seen, { ...fromSydney, knownCountries: [] }, now).action).toBe('allow'); // no baseline (decision 0402)
    expect(decide(geoPolicy, seen, { ...fromSydney, current: null }, now).action).toBe('allow'); // address not located
  });

  it('acts on impossible travel within 24 h, and lets the strongest action of all fired kinds win', () => {
    const travelPolicy: Policy = { ...allowAll, new_device: 'challenge', impossible_travel: 'block' };
    const hourAgo = { ...paris, createdAt: new Date(now.getTime() - 3_600_000) };
    const jump: GeoFacts = { current: sydney, knownCountries: ['FR'], lastPlace: hourAgo };
    expect(decide(travelPolicy, seen, jump, now)).toEqual({ action: 'block', kinds: ['impossible_travel'] });
    expect(decide(travelPolicy, { anySession: true, pairSeen: false, tripleSeen: false }, jump, now)).toEqual({
      action: 'block',
      kinds: ['new_device', 'impossible_travel'],
    });
    const dayAgo = { ...hourAgo, createdAt: new Date(now.getTime() - 25 * 3_600_000) };
    expect(decide(travelPolicy, seen, { ...jump, lastPlace: dayAgo }, now).action).toBe('allow');
    expect(
      decide(travelPolicy, seen, { ...jump, current: { ...paris, city: 'Versailles', latitude: 48.8049, longitude: 2.1204 } }, now).action,
    ).toBe('allow'); // 17 km: geolocation noise
  });
});
