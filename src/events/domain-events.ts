/**
 * The typed map of domain events. A service emits them inside its unit of work
 * (src/database/unit-of-work.ts); its transaction-phase writers (the audit writer, which
 * turns each event into the audit row its name has in the catalog) run on the same transaction
 * before it commits, and the `@OnEvent(name)` handlers (anomaly detection on login_success) only
 * once it has committed. Mail is not a handler: it is queued in the transaction (the outbox) and
 * its worker wakes after commit. Every event the audit catalog marks "emitted" is named here,
 * with the facts its audit row records; the compile-time check at the bottom keeps the two
 * lists equal.
 */
import type { RequestMeta } from './request-meta';
import type { ActorType, AUDIT_EVENTS, AuditEventType, AuditSeverity } from './audit-catalog';

/** Who did it, as the audit row names them. */
export interface AuditActor {
  type: ActorType;
  id: string | null;
  email?: string | null;
  /** A human name for a credential actor (an API token's label, an OAuth client's name): metadata.actor_label. */
  label?: string | null;
}

/** What every domain event carries: the facts of its audit row. */
export interface AuditFacts {
  workspaceId: string | null;
  actor: AuditActor;
  /** email, where known (a person): metadata.target_email, so the log names them beside the id. */
  target?: { type: string; id: string; email?: string | null };
  oauthClientId?: string | null;
  request?: RequestMeta;
  message?: string;
  metadata?: Record<string, unknown>;
  /** Overrides the catalog severity (anomaly_detected follows the anomaly). */
  severity?: AuditSeverity;
  /** Only for seeding and tests; the database assigns the time otherwise. */
  createdAt?: Date;
}

/** An end user as the events they cause name them. */
export interface EndUserActorRef {
  id: string;
  workspaceId: string;
  email: string;
  oauthClientId: string | null;
}

/**
 * The facts of an event an end user caused themselves: their workspace and application, themselves
 * as the actor, the request, and what it was done to (their account unless said).
 */
export function byEndUser<Q extends RequestMeta | undefined>(
  user: EndUserActorRef,
  request: Q,
  target: NonNullable<AuditFacts['target']> = { type: 'EndUser', id: user.id },
): Pick<AuditFacts, 'workspaceId' | 'actor' | 'target' | 'oauthClientId'> & { request: Q } {
  return {
    workspaceId: user.workspaceId,
    actor: { type: 'end_user', id: user.id, email: user.email },
    target,
    oauthClientId: user.oauthClientId,
    request,
  };
}

/**
 * The facts of an event a developer caused (in the console or through the developer API): the
 * workspace, the developer as the actor, what it was done to, and the request.
 */
export function byDeveloper<Q extends RequestMeta | undefined>(
  developer: { developerId: string; email: string },
  workspaceId: string,
  target: NonNullable<AuditFacts['target']>,
  request: Q,
): Pick<AuditFacts, 'workspaceId' | 'actor' | 'target'> & { request: Q } {
  return { workspaceId, actor: { type: 'developer', id: developer.developerId, email: developer.email }, target, request };
}

/** One sign-in of an end user, as stored in end_user_sessions (read by the anomaly detectors). */
export interface EndUserSessionRecord {
  id: string;
  workspaceId: string;
  userId: string;
  oauthClientId: string | null;
  /** 'api': tokens from POST /e/v1/auth/login/; 'browser': the hosted login page (cookie esid). */
  kind: 'api' | 'browser';
  ipAddress: string | null;
  userAgent: string | null;
  browserFamily: string;
  osFamily: string;
  /** ISO 3166-1 alpha-2, from geolocation; null when unknown. */
  country: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  createdAt: Date;
  lastSeenAt: Date;
  /** How the session was authenticated (RFC 8176 values, e.g. ['pwd'] or ['pwd', 'otp', 'mfa']). */
  amr: string[];
}

/** The directory event types (the feed, webhooks and Shared Signals read them; docs/events.md). */
export const DIRECTORY_EVENT_TYPES = [
  'directory.user.created',
  'directory.user.updated',
  'directory.user.deactivated',
  'directory.user.reactivated',
  'directory.group.created',
  'directory.group.updated',
  'directory.group.deleted',
  'directory.group.user_added',
  'directory.group.user_removed',
] as const;
export type DirectoryEventType = (typeof DIRECTORY_EVENT_TYPES)[number];

/**
 * What a directory change tells the directory-event writer (the outbox, decision 0510), riding on
 * the SCIM event that records it. A user carries its SCIM representation as it is now
 * (`stampedNow`: its meta times are the transaction's now(), for an insert whose row the service
 * has not read back); a group is read by the writer in the transaction, except a deleted one; a
 * membership change names the users (id, userName) of one or several groups, written in one
 * set-based insert.
 */
export type DirectoryChange =
  | {
      kind: 'user';
      type: Extract<DirectoryEventType, `directory.user.${string}`>;
      user: Record<string, unknown>;
      changed?: string[];
      stampedNow?: boolean;
    }
  | { kind: 'group'; type: 'directory.group.created' | 'directory.group.updated'; groupId: string; changed?: string[] }
  | { kind: 'group-deleted'; group: Record<string, unknown> }
  | {
      kind: 'membership';
      type: 'directory.group.user_added' | 'directory.group.user_removed';
      groupIds: string[];
      /** Each user's userName as the change read it; absent, the event reads it from the user's row (decision 0991). */
      users: { id: string; userName?: string }[];
    };

/** The facts of a SCIM write's audit row and the directory changes it made. */
export type DirectoryFacts = AuditFacts & { directory?: DirectoryChange[] };

export interface DomainEvents {
  /** A successful end-user sign-in; after commit the anomaly detectors read its session. */
  login_success: AuditFacts & {
    request: RequestMeta;
    session: EndUserSessionRecord;
    user: { id: string; email: string; firstName: string; lastName: string; oauthClientId: string | null };
  };
  login_failure: AuditFacts;
  logout: AuditFacts;
  register: AuditFacts;
  email_verify_send: AuditFacts;
  email_verify_confirm: AuditFacts;
  password_reset_request: AuditFacts;
  password_reset_confirm: AuditFacts;
  password_update: AuditFacts;
  oauth_client_create: AuditFacts;
  oauth_client_update: AuditFacts;
  oauth_client_delete: AuditFacts;
  oauth_client_secret_reset: AuditFacts;
  oauth_token_issue: AuditFacts;
  oauth_token_revoke: AuditFacts;
  oauth_consent_grant: AuditFacts;
  workspace_create: AuditFacts;
  workspace_update: AuditFacts;
  workspace_delete: AuditFacts;
  workspace_member_add: AuditFacts;
  workspace_member_remove: AuditFacts;
  api_token_create: AuditFacts;
  api_token_revoke: AuditFacts;
  user_create: AuditFacts;
  scim_token_create: AuditFacts;
  scim_token_revoke: AuditFacts;
  scim_user_create: DirectoryFacts;
  scim_user_update: DirectoryFacts;
  scim_user_delete: DirectoryFacts;
  scim_group_create: DirectoryFacts;
  scim_group_update: DirectoryFacts;
  scim_group_delete: DirectoryFacts;
  saml_sp_create: AuditFacts;
  saml_sp_update: AuditFacts;
  saml_sp_delete: AuditFacts;
  saml_sso_success: AuditFacts;
  saml_sso_failure: AuditFacts;
  anomaly_detected: AuditFacts;
  anomaly_notified: AuditFacts;
  managed_database_create: AuditFacts;
  managed_database_delete: AuditFacts;
  managed_database_provision_fail: AuditFacts;
  managed_database_backup_create: AuditFacts;
  managed_database_restore: AuditFacts;
  managed_database_credentials_read: AuditFacts;
  webhook_create: AuditFacts;
  webhook_update: AuditFacts;
  webhook_delete: AuditFacts;
  webhook_secret_rotate: AuditFacts;
  webhook_disable: AuditFacts;
  scim_client_create: AuditFacts;
  scim_client_secret_create: AuditFacts;
  scim_client_revoke: AuditFacts;
  scim_client_update: AuditFacts;
  mfa_enroll: AuditFacts;
  mfa_remove: AuditFacts;
  mfa_challenge_success: AuditFacts;
  mfa_challenge_failure: AuditFacts;
  recovery_codes_regenerate: AuditFacts;
  step_up_required: AuditFacts;
  sign_in_blocked: AuditFacts;
  ssf_receiver_create: AuditFacts;
  ssf_receiver_delete: AuditFacts;
  external_provider_create: AuditFacts;
  external_provider_update: AuditFacts;
  external_provider_delete: AuditFacts;
}

export type DomainEventName = keyof DomainEvents;

/** One emitted event: its name and payload, typed together. */
export type DomainEvent = { [K in DomainEventName]: { name: K; payload: DomainEvents[K] } }[DomainEventName];

/** A transaction-phase write as one SQL expression (placeholders numbered from $1) and its values. */
export interface StatementRider {
  expression: string;
  params: unknown[];
  /** Told the expression's value (as text) once the statement has run. */
  settle(value: string | null): void;
}

// Compile-time check: the map names exactly the catalog's emitted events.
type EmittedInCatalog = { [K in AuditEventType]: (typeof AUDIT_EVENTS)[K]['status'] extends 'emitted' ? K : never }[AuditEventType];
type Missing = Exclude<EmittedInCatalog, DomainEventName>;
type NotInCatalog = Exclude<DomainEventName, EmittedInCatalog>;
export const EVENT_MAP_MATCHES_CATALOG: [Missing, NotInCatalog] extends [never, never] ? true : { missing: Missing; extra: NotInCatalog } =
  true;
