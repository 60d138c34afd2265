import { Counter, Histogram, register } from 'prom-client';

/* prom-client keeps one global registry; reuse a metric when a test boots a second app. */
function counter(name: string, help: string, labelNames: string[]): Counter {
  return (register.getSingleMetric(name) as Counter | undefined) ?? new Counter({ name, help, labelNames });
}

export const detectorFailures = counter(
  'anomaly_detector_failures_total',
  'Detectors that threw while checking a sign-in (the others still ran)',
  ['kind'],
);
export const anomaliesDetected = counter('anomalies_detected_total', 'Anomalies recorded, by kind', ['kind']);
export const anomalyRunFailures = counter(
  'anomaly_run_failures_total',
  'Sign-ins whose anomaly check failed outside the detectors (storage, mail)',
  ['stage'],
);
export const geoLookups = counter('geo_lookups_total', 'Geolocation lookups by where the answer came from', ['source']);

export const detectionDuration =
  (register.getSingleMetric('anomaly_detection_seconds') as Histogram | undefined) ??
  new Histogram({
    name: 'anomaly_detection_seconds',
    help: 'Time from login_success to anomalies stored and mail queued',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
