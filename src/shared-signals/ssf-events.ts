import type { DirectoryEventRow } from '../directory-events/directory-events.repository';

/** The event types this transmitter sends (SSF 1.0 §7.1 events_supported; RISC 1.0, CAEP 1.0). */
export const RISC = 'https://schemas.openid.net/secevent/risc/event-type/';
export const CAEP = 'https://schemas.openid.net/secevent/caep/event-type/';
export const ACCOUNT_DISABLED = `${RISC}account-disabled`;
export const ACCOUNT_ENABLED = `${RISC}account-enabled`;
export const IDENTIFIER_CHANGED = `${RISC}identifier-changed`;
export const SESSION_REVOKED = `${CAEP}session-revoked`;
export const CREDENTIAL_CHANGE = `${CAEP}credential-change`;
/** SSF 1.0 §8.1.4: sent on a verification request whatever the stream asked for. */
export const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';

export const EVENTS_SUPPORTED = [ACCOUNT_DISABLED, ACCOUNT_ENABLED, IDENTIFIER_CHANGED, SESSION_REVOKED, CREDENTIAL_CHANGE] as const;

/** An RFC 9493 subject identifier in one of the formats this transmitter matches. */
export type SubjectId =
  { format: 'email'; email: string } | { format: 'iss_sub'; iss: string; sub: string } | { format: 'opaque'; id: string };

export const SUBJECT_FORMATS = ['email', 'iss_sub', 'opaque'] as const;

/** The canonical key a subject is stored and matched under (emails case-insensitively, RFC 9493 §3.2.2 leaves it to us). */
export function subjectKey(subject: SubjectId): string {
  switch (subject.format) {
    case 'email':
      return `email:${subject.email.trim().toLowerCase()}`;
    case 'iss_sub':
      return `iss_sub:${subject.iss} ${subject.sub}`;
    case 'opaque':
      return `opaque:${subject.id}`;
  }
}

/** One signal to send about a person, before it is matched to streams and signed. */
export interface Signal {
  eventType: string;
  /** The event's members (RISC/CAEP), without subject. */
  event: Record<string, unknown>;
  /** The person's identifiers: every one a receiver may have added. */
  subjects: SubjectId[];
  /** The subject the SET names when no added subject matched (a stream of ALL). */
  preferred: SubjectId;
  /** RFC 8417 txn: the directory event's id, shared by the SETs of one change. */
  txn: string;
  /** The subject the SET must name whatever subject matched (identifier-changed: the old email). */
  named?: SubjectId;
}

interface ScimUserData {
  id?: unknown;
  userName?: unknown;
  emails?: unknown;
}

/** The person's identifiers as RFC 9493 subjects: each email, iss_sub (our issuer, their id) and opaque (their id). */
export function subjectsOf(user: ScimUserData, issuer: string): { all: SubjectId[]; preferred: SubjectId } {
  const id = String(user.id);
  const emails = new Set<string>();
  const primary = primaryEmail(user);
  if (primary) emails.add(primary);
  if (Array.isArray(user.emails)) {
    for (const e of user.emails as { value?: unknown }[]) if (typeof e?.value === 'string' && e.value.includes('@')) emails.add(e.value);
  }
  if (typeof user.userName === 'string' && user.userName.includes('@')) emails.add(user.userName);
  const issSub: SubjectId = { format: 'iss_sub', iss: issuer, sub: id };
  const all: SubjectId[] = [...[...emails].map((email): SubjectId => ({ format: 'email', email })), issSub, { format: 'opaque', id }];
  return { all, preferred: primary ? { format: 'email', email: primary } : issSub };
}

function primaryEmail(user: ScimUserData): string | null {
  if (Array.isArray(user.emails)) {
    const list = user.emails as { value?: unknown; primary?: unknown }[];
    const chosen = list.find((e) => e?.primary === true) ?? list[0];
    if (typeof chosen?.value === 'string' && chosen.value.includes('@')) return chosen.value;
  }
  return typeof user.userName === 'string' && user.userName.includes('@') ? user.userName : null;
}

/**
 * The signals a directory event means (decision 0523): a deactivation disables the account and
 * ends its sessions (SCIM deactivation signs the person out everywhere); a reactivation enables it;
 * a change of primary email changes the identifier. `previous` is the person as the event before
 * this one showed them (an update's old email); other events carry no signal.
 */
export function signalsOf(event: DirectoryEventRow, issuer: string, previous: ScimUserData | null = null): Signal[] {
  if (!event.type.startsWith('directory.user.')) return [];
  const { all, preferred } = subjectsOf(event.data, issuer);
  const at = Math.floor(Date.parse(event.occurredAt) / 1000);
  const signal = (eventType: string, body: Record<string, unknown>): Signal => ({
    eventType,
    event: body,
    subjects: all,
    preferred,
    txn: event.id,
  });
  switch (event.type) {
    case 'directory.user.deactivated':
      return [signal(ACCOUNT_DISABLED, {}), signal(SESSION_REVOKED, { event_timestamp: at, initiating_entity: 'admin' })];
    case 'directory.user.reactivated':
      return [signal(ACCOUNT_ENABLED, {})];
    case 'directory.user.updated':
      return identifierChanged(event, issuer, previous);
    default:
      return [];
  }
}

/** Whether an update may have changed the person's email (what identifier-changed is about). */
export function mayChangeIdentifier(event: DirectoryEventRow): boolean {
  return event.type === 'directory.user.updated' && (event.changed ?? []).some((c) => c === 'userName' || c.startsWith('emails'));
}

/**
 * RISC 1.0 §2.5: about the old email (the event is for email and phone subjects only), with the
 * new one as new-value; matched on the person's old identifiers. Nothing when the old email is
 * not known (older than the events kept) or did not change.
 */
function identifierChanged(event: DirectoryEventRow, issuer: string, previous: ScimUserData | null): Signal[] {
  if (!mayChangeIdentifier(event) || !previous) return [];
  const before = primaryEmail(previous);
  const after = primaryEmail(event.data);
  if (!before || !after || before.toLowerCase() === after.toLowerCase()) return [];
  const oldSubject: SubjectId = { format: 'email', email: before };
  return [
    {
      eventType: IDENTIFIER_CHANGED,
      event: { 'new-value': after },
      subjects: subjectsOf({ ...previous, id: event.data.id }, issuer).all,
      preferred: oldSubject,
      named: oldSubject,
      txn: event.id,
    },
  ];
}

/** An audit row as the signals need it (the chain's view of it). */
export interface AuditedChange {
  id: string;
  event_type: string;
  actor_type: string;
  actor_id: string | null;
  actor_email: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
}

/** CAEP 1.0 §3.3 credential types of our second factors. */
const FACTOR_TYPES: Record<string, string> = { totp: 'app', passkey: 'fido2-platform' };

/**
 * The signals an audited change means (decision 0525): a signed-out or revoked session, or a
 * sign-in blocked by the sign-in policy (which ends the person's sessions), is CAEP session-revoked; a password set or reset, or a second factor enrolled or removed, is CAEP
 * credential-change. About the end user who did it (or whose session a system revocation ended).
 */
export function signalsOfAudit(row: AuditedChange, issuer: string): Signal[] {
  const userId = row.actor_type === 'end_user' ? row.actor_id : typeof row.metadata?.user_id === 'string' ? row.metadata.user_id : null;
  if (!userId) return [];
  const at = Math.floor(Date.parse(row.created_at) / 1000);
  const { all, preferred } = subjectsOf({ id: userId, userName: row.actor_email ?? undefined }, issuer);
  const initiating = row.actor_type === 'end_user' ? 'user' : 'system';
  const signal = (eventType: string, event: Record<string, unknown>): Signal[] => [
    { eventType, event: { event_timestamp: at, initiating_entity: initiating, ...event }, subjects: all, preferred, txn: row.id },
  ];
  const method = typeof row.metadata?.method === 'string' ? row.metadata.method : '';
  switch (row.event_type) {
    case 'logout':
      return signal(SESSION_REVOKED, {});
    case 'sign_in_blocked':
      // The workspace's sign-in policy refused a sign-in and ended the person's sessions (decision 0953).
      return signal(SESSION_REVOKED, { initiating_entity: 'policy', reason_admin: { en: blockReason(row.metadata?.kinds) } });
    case 'password_update':
    case 'password_reset_confirm':
      return signal(CREDENTIAL_CHANGE, { credential_type: 'password', change_type: 'update' });
    case 'mfa_enroll':
      return FACTOR_TYPES[method] ? signal(CREDENTIAL_CHANGE, { credential_type: FACTOR_TYPES[method], change_type: 'create' }) : [];
    case 'mfa_remove':
      return FACTOR_TYPES[method] ? signal(CREDENTIAL_CHANGE, { credential_type: FACTOR_TYPES[method], change_type: 'delete' }) : [];
    default:
      return [];
  }
}

/** CAEP reason_admin of a block: which of the policy's kinds refused the sign-in. */
function blockReason(kinds: unknown): string {
  const named = Array.isArray(kinds) ? kinds.filter((k): k is string => typeof k === 'string') : [];
  return `Sign-in blocked by the sign-in policy${named.length ? ` (${named.join(', ')})` : ''}`;
}
