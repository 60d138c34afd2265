import type { PolicyAction } from './entities/sign-in-policy.entity';

/** The anomaly kinds a policy can act on before the session exists (the device triple, no geolocation). */
export const POLICY_KINDS = ['new_device', 'new_ip'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export type Policy = Record<PolicyKind, PolicyAction>;

/** What the session table says of this sign-in's (browser family, OS family, IP) for the user. */
export interface DeviceFacts {
  anySession: boolean;
  pairSeen: boolean;
  tripleSeen: boolean;
}

export interface RiskDecision {
  action: PolicyAction;
  kinds: PolicyKind[];
}

const ALLOW: RiskDecision = { action: 'allow', kinds: [] };
const STRENGTH: Record<PolicyAction, number> = { allow: 0, challenge: 1, block: 2 };

/**
 * The detectors' rule, before the session exists: the first session of a user is never flagged; an
 * unseen triple whose browser/OS pair was seen from another IP is new_ip, otherwise new_device.
 * The policy of the kind that fired decides.
 */
export function decide(policy: Policy | null, facts: DeviceFacts | null): RiskDecision {
  if (!policy || !facts || !facts.anySession || facts.tripleSeen) return ALLOW;
  const kind: PolicyKind = facts.pairSeen ? 'new_ip' : 'new_device';
  const action = policy[kind];
  return STRENGTH[action] > 0 ? { action, kinds: [kind] } : ALLOW;
}
