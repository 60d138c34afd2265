/**
 * The device as the detectors compare it: browser family and OS family. The reduction itself is
 * the service's one reducer, src/common/user-agent.ts (ua-parser-js 1.x, MIT; 2.x is AGPL), which
 * the end-users module applies at sign-in and stores on the session; detectors compare the stored
 * families, so both sides can never disagree (decision 0401).
 */
export { reduceUserAgent, type ReducedUserAgent as DeviceFamily } from '../common/user-agent';
import type { ReducedUserAgent } from '../common/user-agent';

/** Name the reducer uses when it cannot tell (empty header, curl, an unknown bot). */
export const UNKNOWN_FAMILY = 'Other';

/** "Chrome on macOS"-style label for messages. */
export function describeDevice(device: ReducedUserAgent): string {
  const browser = device.browserFamily === UNKNOWN_FAMILY ? 'an unknown browser' : device.browserFamily;
  const os = device.osFamily === UNKNOWN_FAMILY ? 'an unknown system' : device.osFamily;
  return `${browser} on ${os}`;
}
