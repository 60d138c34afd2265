import { AUDIT_EVENTS } from '../events/audit-catalog';
import { OUTBOX_AUDIT_EVENTS } from '../events/outbox-audit-events';
import { AuditedChange, signalsOfAudit } from './ssf-events';

const row = (event_type: string, metadata: Record<string, unknown> = {}): AuditedChange => ({
  id: '0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90',
  event_type,
  actor_type: 'end_user',
  actor_id: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11',
  actor_email: 'ada@example.com',
  metadata,
  created_at: '2026-12-07T12:00:00.000Z',
});

/** The audit rows Shared Signals read are exactly the ones whose insert fails the change (decisions 0525, 0954). */
describe('signals of audited changes', () => {
  it('comes only from the audit events that are an outbox', () => {
    const signalling = Object.keys(AUDIT_EVENTS).filter(
      (type) => signalsOfAudit(row(type, { method: 'totp' }), 'https://id.example').length > 0,
    );
    expect(new Set(signalling)).toEqual(OUTBOX_AUDIT_EVENTS);
  });

  it('names the kinds of a blocked sign-in and the policy as the initiating entity', () => {
    const [signal] = signalsOfAudit(row('sign_in_blocked', { kinds: ['new_ip', 'new_device'] }), 'https://id.example');
    expect(signal.event).toEqual({
      event_timestamp: 1796644800,
      initiating_entity: 'policy',
      reason_admin: { en: 'Sign-in blocked by the sign-in policy (new_ip, new_device)' },
    });
    expect(signal.preferred).toEqual({ format: 'email', email: 'ada@example.com' });
  });
});
