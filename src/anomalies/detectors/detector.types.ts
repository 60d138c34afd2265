import type { EndUserSessionRecord } from '../../events/domain-events';

/** What the detectors know about one session: plain data, no entities, so detectors stay pure. */
export type SessionFacts = Pick<
  EndUserSessionRecord,
  'id' | 'createdAt' | 'ipAddress' | 'browserFamily' | 'osFamily' | 'country' | 'city' | 'latitude' | 'longitude'
>;

export type AnomalyKind = 'new_device' | 'new_ip' | 'new_country' | 'impossible_travel';
export type AnomalySeverity = 'info' | 'warn' | 'critical';

export const ANOMALY_KINDS: readonly AnomalyKind[] = ['new_device', 'new_ip', 'new_country', 'impossible_travel'];

export interface DetectorSettings {
  /** False when no geolocation token is configured: geo detectors are off (spec D). */
  geoEnabled: boolean;
  impossibleTravelKmh: number;
  impossibleTravelMinKm: number;
}

export interface DetectorInput {
  current: SessionFacts;
  /** The user's sessions created before `current`, any order, `current` excluded. */
  prior: readonly SessionFacts[];
  settings: DetectorSettings;
}

export interface AnomalyFinding {
  kind: AnomalyKind;
  severity: AnomalySeverity;
  message: string;
  metadata: Record<string, unknown>;
}

export interface Detector {
  kind: AnomalyKind;
  needsGeo: boolean;
  detect(input: DetectorInput): AnomalyFinding | null;
}
