import { describeDevice } from '../ua-family';
import { Detector, DetectorInput, SessionFacts } from './detector.types';

/*
 * new_device and new_ip share one question: is the (browser family, OS family, IP) triple new for
 * this user? The product rule settles the split: if the family pair was seen before from another IP the
 * login is new_ip, otherwise new_device, so at most one of the two fires per login. They stay two
 * detectors so that one failing never hides the other's kind (each is isolated by the runner).
 */

const samePair = (a: SessionFacts, b: SessionFacts) => a.browserFamily === b.browserFamily && a.osFamily === b.osFamily;

const sameTriple = (a: SessionFacts, b: SessionFacts) => samePair(a, b) && a.ipAddress === b.ipAddress;

type TripleVerdict = 'first_session' | 'seen' | 'new_ip' | 'new_device';

export function classifyTriple({ current, prior }: DetectorInput): TripleVerdict {
  if (prior.length === 0) return 'first_session'; // the first session is never flagged
  if (prior.some((p) => sameTriple(p, current))) return 'seen';
  return prior.some((p) => samePair(p, current)) ? 'new_ip' : 'new_device';
}

const ipLabel = (s: SessionFacts) => s.ipAddress ?? 'an unknown address';

export const newDeviceDetector: Detector = {
  kind: 'new_device',
  needsGeo: false,
  detect(input) {
    if (classifyTriple(input) !== 'new_device') return null;
    const { current } = input;
    const device = describeDevice(current);
    return {
      kind: 'new_device',
      severity: 'warn',
      message: `New sign-in from ${device} (IP ${ipLabel(current)}), a device not seen on this account before.`,
      metadata: { browser_family: current.browserFamily, os_family: current.osFamily },
    };
  },
};

export const newIpDetector: Detector = {
  kind: 'new_ip',
  needsGeo: false,
  detect(input) {
    if (classifyTriple(input) !== 'new_ip') return null;
    const { current, prior } = input;
    const device = describeDevice(current);
    // Under that rule the address may be known from another device; say which case it is.
    const ipKnown = prior.some((p) => p.ipAddress === current.ipAddress);
    return {
      kind: 'new_ip',
      severity: 'info',
      message: ipKnown
        ? `Sign-in with ${device} from IP ${ipLabel(current)}, an address not used with this device before.`
        : `Sign-in from a new IP address, ${ipLabel(current)}, on a known device (${device}).`,
      metadata: { browser_family: current.browserFamily, os_family: current.osFamily },
    };
  },
};
