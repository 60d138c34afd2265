import { Injectable } from '@nestjs/common';
import { AnomalyKind, Detector } from '../detectors/detector.types';
import { DEFAULT_DETECTORS } from '../detectors/run-detectors';

/**
 * The detectors that run after each sign-in. A provider rather than a constant so a test can put a
 * detector that throws in place of a real one and watch the others carry on (decision 0406).
 */
@Injectable()
export class DetectorRegistry {
  private detectors: readonly Detector[] = DEFAULT_DETECTORS;

  all(): readonly Detector[] {
    return this.detectors;
  }

  /** Replaces the detector of `kind`; returns a function that puts the original back. */
  replace(kind: AnomalyKind, detector: Detector): () => void {
    const previous = this.detectors;
    this.detectors = previous.map((d) => (d.kind === kind ? detector : d));
    return () => {
      this.detectors = previous;
    };
  }
}
