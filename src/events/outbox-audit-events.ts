import type { DomainEventName } from './domain-events';

/**
 * Audit events whose rows are also an outbox (decision 0954): the Shared Signals transmitter turns
 * them into CAEP signals from the sealed audit chain (decision 0525). Inside a unit of work, their
 * audit insert fails the change when it fails, as a directory event's does (decision 0510): a
 * sign-out, a password or second factor changed, a blocked sign-in is never acknowledged without
 * the row its signal is made from.
 */
export const OUTBOX_AUDIT_EVENTS: ReadonlySet<DomainEventName> = new Set<DomainEventName>([
  'logout',
  'password_update',
  'password_reset_confirm',
  'mfa_enroll',
  'mfa_remove',
  'sign_in_blocked',
]);
