import { decide, Policy } from './sign-in-policy';

describe('sign-in policy decision', () => {
  const policy: Policy = { new_device: 'challenge', new_ip: 'block' };

  it('allows everything without a policy (the default)', () => {
    expect(decide(null, { anySession: true, pairSeen: false, tripleSeen: false })).toEqual({ action: 'allow', kinds: [] });
  });

  it('never acts on the first session of a user, nor on a seen device and address', () => {
    expect(decide(policy, { anySession: false, pairSeen: false, tripleSeen: false }).action).toBe('allow');
    expect(decide(policy, { anySession: true, pairSeen: true, tripleSeen: true }).action).toBe('allow');
  });

  it('applies the policy of the kind the detectors would report', () => {
    expect(decide(policy, { anySession: true, pairSeen: false, tripleSeen: false })).toEqual({
      action: 'challenge',
      kinds: ['new_device'],
    });
    expect(decide(policy, { anySession: true, pairSeen: true, tripleSeen: false })).toEqual({ action: 'block', kinds: ['new_ip'] });
    expect(decide({ new_device: 'allow', new_ip: 'allow' }, { anySession: true, pairSeen: false, tripleSeen: false }).action).toBe('allow');
  });
});
