import { DEFAULT_DETECTORS } from '../detectors/run-detectors';
import { DetectorRegistry } from './detector-registry';

describe('DetectorRegistry', () => {
  it('runs the four detectors by default, in a stable order', () => {
    expect(new DetectorRegistry().all().map((d) => d.kind)).toEqual(['new_device', 'new_ip', 'new_country', 'impossible_travel']);
  });

  it('replaces one detector and puts the original back', () => {
    const registry = new DetectorRegistry();
    const standIn = { kind: 'new_country' as const, needsGeo: true, detect: () => null };
    const restore = registry.replace('new_country', standIn);
    expect(registry.all()[2]).toBe(standIn);
    expect(registry.all()).toHaveLength(4);
    restore();
    expect(registry.all()).toEqual(DEFAULT_DETECTORS);
  });
});
