import { impossibleTravelDetector, newCountryDetector } from '../anomalies/detectors/geo.detectors';
import type { DetectorSettings, SessionFacts } from '../anomalies/detectors/detector.types';
import type { PolicyAction } from './entities/sign-in-policy.entity';

/** Every anomaly kind can carry a policy (decisions 0316, 0326). */
export const POLICY_KINDS = ['new_device', 'new_ip', 'new_country', 'impossible_travel'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];
export const GEO_POLICY_KINDS: readonly PolicyKind[] = ['new_country', 'impossible_travel'];

export type Policy = Record<PolicyKind, PolicyAction>;

/** What the session table says of this sign-in's (browser family, OS family, IP) for the user. */
export interface DeviceFacts {
  anySession: boolean;
  pairSeen: boolean;
  tripleSeen: boolean;
}

/** A place: where this sign-in comes from, or where an earlier session was. */
export interface PlaceFacts {
  country: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** The user's geolocated history as the geo detectors need it, and this sign-in's place (null: unknown). */
export interface GeoFacts {
  current: PlaceFacts | null;
  /** Countries of the user's earlier sessions. */
  knownCountries: string[];
  /** The latest earlier session with coordinates within the travel window, if any. */
  lastPlace: (PlaceFacts & { createdAt: Date }) | null;
}

export interface RiskDecision {
  action: PolicyAction;
  kinds: PolicyKind[];
}

const ALLOW: RiskDecision = { action: 'allow', kinds: [] };
const STRENGTH: Record<PolicyAction, number> = { allow: 0, challenge: 1, block: 2 };

export const hasGeoPolicy = (policy: Policy): boolean => GEO_POLICY_KINDS.some((k) => policy[k] !== 'allow');

/** Whether the user's history could make a geo kind fire at all (no baseline: nothing to look up). */
export const geoBaselineExists = (geo: Omit<GeoFacts, 'current'>): boolean => geo.knownCountries.length > 0 || geo.lastPlace !== null;

/** The device kind the detectors would report: the first session is never flagged (decision 0405). */
function deviceKind(facts: DeviceFacts): PolicyKind | null {
  if (!facts.anySession || facts.tripleSeen) return null;
  return facts.pairSeen ? 'new_ip' : 'new_device';
}

const session = (id: string, place: PlaceFacts, createdAt: Date): SessionFacts => ({
  id,
  createdAt,
  ipAddress: null,
  browserFamily: '',
  osFamily: '',
  ...place,
});

/**
 * The geo kinds the detectors would report for this sign-in, by the detectors' own code (so the
 * policy and the alert never disagree): new_country needs a geolocated baseline (decision 0402),
 * impossible_travel a geolocated session within 24 h.
 */
function geoKinds(geo: GeoFacts, now: Date, settings: DetectorSettings): PolicyKind[] {
  if (!geo.current) return [];
  const current = session('current', geo.current, now);
  const prior: SessionFacts[] = geo.knownCountries.map((country, i) =>
    session(`known-${i}`, { country, city: null, latitude: null, longitude: null }, new Date(0)),
  );
  if (geo.lastPlace) prior.push(session('last', geo.lastPlace, geo.lastPlace.createdAt));
  const input = { current, prior, settings };
  const kinds: PolicyKind[] = [];
  if (newCountryDetector.detect(input)) kinds.push('new_country');
  if (impossibleTravelDetector.detect(input)) kinds.push('impossible_travel');
  return kinds;
}

/**
 * The policy's decision: every kind that fires and has a non-`allow` action counts, and the
 * strongest action wins (block over challenge). The first session of a user is never acted on.
 */
export function decide(
  policy: Policy | null,
  facts: DeviceFacts | null,
  geo: GeoFacts | null = null,
  now: Date = new Date(),
  settings: DetectorSettings = { geoEnabled: true, impossibleTravelKmh: 800, impossibleTravelMinKm: 100 },
): RiskDecision {
  if (!policy || !facts || !facts.anySession) return ALLOW;
  const fired = [deviceKind(facts), ...(geo ? geoKinds(geo, now, settings) : [])].filter(
    (k): k is PolicyKind => k !== null && policy[k] !== 'allow',
  );
  if (!fired.length) return ALLOW;
  const action = fired.map((k) => policy[k]).reduce((a, b) => (STRENGTH[b] > STRENGTH[a] ? b : a));
  return { action, kinds: fired };
}
