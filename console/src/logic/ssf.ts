/** A stream's status as a badge tone: enabled delivers, paused holds, disabled drops (SSF 1.0 §8.1.2). */
export const STREAM_TONE = { enabled: 'ok', paused: 'warn', disabled: 'bad' } as const;

const DELIVERY: Record<string, string> = { 'urn:ietf:rfc:8935': 'Push', 'urn:ietf:rfc:8936': 'Poll' };

/** A delivery method URN in words: Push (RFC 8935) or Poll (RFC 8936); another URN as it is. */
export function deliveryName(method: string): string {
  return DELIVERY[method] ?? method;
}

/** An event type URI by its last part (account-disabled, session-revoked…), the part people recognise. */
export function eventName(uri: string): string {
  const last = uri.slice(uri.lastIndexOf('/') + 1);
  return last || uri;
}

const STATES = ['pending', 'delivered', 'acknowledged', 'failed'] as const;

/** A stream's SETs counted by state, in words ("3 delivered, 1 pending"), or "none yet". */
export function setCounts(sets: Record<string, number>): string {
  const parts = STATES.filter((state) => (sets[state] ?? 0) > 0).map((state) => `${sets[state]} ${state}`);
  return parts.length ? parts.join(', ') : 'none yet';
}
