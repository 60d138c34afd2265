import { newDeviceDetector, newIpDetector } from './device.detectors';
import { AnomalyFinding, AnomalyKind, Detector, DetectorInput } from './detector.types';
import { impossibleTravelDetector, newCountryDetector } from './geo.detectors';

export const DEFAULT_DETECTORS: readonly Detector[] = [newDeviceDetector, newIpDetector, newCountryDetector, impossibleTravelDetector];

export interface DetectorFailure {
  kind: AnomalyKind;
  error: unknown;
}

export interface DetectorRun {
  findings: AnomalyFinding[];
  failures: DetectorFailure[];
  /** Detectors that did not run because geolocation is off. */
  skipped: AnomalyKind[];
}

/**
 * Runs every detector on its own: one that throws is reported in `failures` and the others still
 * run (spec D: "a failure of one detector never ... stops the others"). Never throws.
 */
export function runDetectors(detectors: readonly Detector[], input: DetectorInput): DetectorRun {
  const run: DetectorRun = { findings: [], failures: [], skipped: [] };
  for (const detector of detectors) {
    if (detector.needsGeo && !input.settings.geoEnabled) {
      run.skipped.push(detector.kind);
      continue;
    }
    try {
      const finding = detector.detect(input);
      if (finding) run.findings.push(finding);
    } catch (error) {
      run.failures.push({ kind: detector.kind, error });
    }
  }
  return run;
}
