import { haversineKm, isValidLatLon } from '../haversine';
import { Detector, SessionFacts } from './detector.types';
import { countryName, describePlace } from './place';

const HOUR_MS = 3_600_000;
/** The prior session for impossible_travel must be at most this old (spec D). */
export const TRAVEL_WINDOW_MS = 24 * HOUR_MS;
/** Two sign-ins in the same second would divide by zero; a second is the floor for speed. */
const MIN_DELTA_HOURS = 1 / 3600;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export const newCountryDetector: Detector = {
  kind: 'new_country',
  needsGeo: true,
  detect({ current, prior }) {
    if (!current.country || prior.length === 0) return null;
    const knownCountries = new Set(prior.map((p) => p.country).filter((c): c is string => !!c));
    // No prior session was geolocated (geo just turned on, or every lookup failed): there is no
    // baseline to compare with, and flagging would alert every user at once (decision 0402).
    if (knownCountries.size === 0 || knownCountries.has(current.country)) return null;
    return {
      kind: 'new_country',
      severity: 'warn',
      message: `First sign-in from ${countryName(current.country)} (IP ${current.ipAddress ?? 'unknown'}).`,
      metadata: { country: current.country, known_countries: [...knownCountries].sort() },
    };
  },
};

/** Most recent prior session within the window that has coordinates, or null. */
export function priorWithCoordinates(current: SessionFacts, prior: readonly SessionFacts[]): SessionFacts | null {
  const now = current.createdAt.getTime();
  let best: SessionFacts | null = null;
  for (const p of prior) {
    const t = p.createdAt.getTime();
    if (t > now || now - t > TRAVEL_WINDOW_MS || !isValidLatLon(p)) continue;
    if (!best || t > best.createdAt.getTime()) best = p;
  }
  return best;
}

export const impossibleTravelDetector: Detector = {
  kind: 'impossible_travel',
  needsGeo: true,
  detect({ current, prior, settings }) {
    if (!isValidLatLon(current)) return null;
    const from = priorWithCoordinates(current, prior);
    if (!from || !isValidLatLon(from)) return null;
    const distanceKm = haversineKm(from, current);
    // Nearby pairs are geolocation noise (city-level lookups can be 50+ km off): a product rule (decision 0402).
    if (distanceKm < settings.impossibleTravelMinKm) return null;
    const deltaHours = (current.createdAt.getTime() - from.createdAt.getTime()) / HOUR_MS;
    const speedKmh = distanceKm / Math.max(deltaHours, MIN_DELTA_HOURS);
    if (speedKmh <= settings.impossibleTravelKmh) return null;
    return {
      kind: 'impossible_travel',
      severity: 'critical',
      message:
        `Sign-in from ${describePlace(current.city, current.country)} ${formatHours(deltaHours)} after one from ` +
        `${describePlace(from.city, from.country)}, ${Math.round(distanceKm).toLocaleString('en')} km away: ` +
        `nobody travels that fast (${Math.round(speedKmh).toLocaleString('en')} km/h).`,
      metadata: {
        from_country: from.country,
        to_country: current.country,
        distance_km: round(distanceKm, 1),
        delta_hours: round(deltaHours, 3),
        speed_kmh: round(speedKmh, 1),
        prior_session_id: from.id,
      },
    };
  },
};

function formatHours(h: number): string {
  if (h < 1) return `${Math.max(1, Math.round(h * 60))} min`;
  return `${round(h, 1)} h`;
}
