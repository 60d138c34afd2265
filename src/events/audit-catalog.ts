/**
 * The audit event catalog (spec, "Events"). Append-only: constants are added at
 * the end and never renamed; "planned" ones are reserved and may not be emitted yet.
 */
export type AuditSeverity = 'info' | 'warn' | 'error';
export type ActorType = 'developer' | 'end_user' | 'api_token' | 'oauth_client' | 'system' | 'anonymous';

interface CatalogEntry {
  severity: AuditSeverity;
  status: 'emitted' | 'planned';
  description: string;
}

const entry =
  <const T extends CatalogEntry['status']>(status: T) =>
  <const S extends AuditSeverity>(severity: S, description: string) => ({ severity, status, description });
/** An entry the service writes. */
const emitted = entry('emitted');
/** An entry reserved for an event the service does not write yet. */
const planned = entry('planned');

export const AUDIT_EVENTS = {
  login_success: emitted('info', 'End user logged in'),
  login_failure: emitted('warn', 'Wrong password or user not found'),
  logout: emitted('info', 'End user logged out'),
  register: emitted('info', 'End-user account created'),
  email_verify_send: emitted('info', 'Verification email sent'),
  email_verify_confirm: emitted('info', 'Email verification completed'),
  password_reset_request: emitted('info', 'Reset email sent'),
  password_reset_confirm: emitted('warn', 'Reset completed'),
  password_update: emitted('warn', 'Authenticated user changed own password'),
  oauth_client_create: emitted('info', 'OAuth client created'),
  oauth_client_update: emitted('info', 'Client configuration changed'),
  oauth_client_delete: emitted('warn', 'Client deleted'),
  oauth_client_secret_reset: emitted('warn', 'Client secret rotated'),
  oauth_token_issue: emitted('info', 'Access or refresh token issued'),
  oauth_token_revoke: emitted('warn', 'Token revoked'),
  oauth_consent_grant: emitted('info', 'Consent granted to a client'),
  workspace_create: emitted('info', 'Workspace created'),
  workspace_update: emitted('info', 'Settings changed'),
  workspace_delete: emitted('warn', 'Workspace deleted'),
  workspace_member_add: emitted('warn', 'Developer added as member'),
  workspace_member_remove: emitted('warn', 'Member removed'),
  workspace_invite_send: planned('info', 'Invitation sent'),
  workspace_invite_accept: planned('info', 'Invitation accepted'),
  api_token_create: emitted('warn', 'API token created'),
  api_token_revoke: emitted('warn', 'API token revoked'),
  dev_token_create: planned('warn', 'Developer access token created'),
  dev_token_revoke: planned('warn', 'Developer access token revoked'),
  user_create: emitted('info', 'Developer created an end user'),
  user_update: planned('info', 'End-user profile changed'),
  user_delete: planned('warn', 'End user deleted'),
  user_group_assign: planned('info', 'User added to group'),
  user_group_unassign: planned('info', 'User removed from group'),
  external_provider_create: emitted('info', 'Provider configured'),
  external_provider_update: emitted('info', 'Provider reconfigured'),
  external_provider_delete: emitted('warn', 'Provider removed'),
  custom_db_connect: planned('info', 'Custom database connected'),
  custom_db_disconnect: planned('warn', 'Custom database disconnected'),
  custom_db_sync_fail: planned('error', 'Custom database sync failed'),
  scim_token_create: emitted('warn', 'SCIM token minted'),
  scim_token_revoke: emitted('warn', 'SCIM token revoked'),
  scim_user_create: emitted('info', 'User provisioned'),
  scim_user_update: emitted('info', 'PUT or PATCH changed a user'),
  scim_user_delete: emitted('warn', 'User deactivated'),
  scim_group_create: emitted('info', 'Group created'),
  scim_group_update: emitted('info', 'Membership change or rename'),
  scim_group_delete: emitted('warn', 'Group deleted'),
  saml_sp_create: emitted('info', 'Service provider registered'),
  saml_sp_update: emitted('info', 'Service provider changed'),
  saml_sp_delete: emitted('warn', 'Service provider deleted'),
  saml_sso_success: emitted('info', 'Signed assertion issued'),
  saml_sso_failure: emitted('warn', 'Malformed request, unknown SP, ACS URL mismatch, or build error'),
  anomaly_detected: emitted('warn', 'A detector fired'),
  anomaly_notified: emitted('info', 'User emailed'),
  // Appended after the spec's list (never renamed):
  managed_database_create: emitted('info', 'Managed database requested'),
  managed_database_delete: emitted('warn', 'Managed database deletion requested'),
  managed_database_provision_fail: emitted('error', 'Managed database could not be provisioned'),
  managed_database_backup_create: emitted('info', 'Managed database backup requested'),
  managed_database_restore: emitted('warn', 'Managed database restore from a backup requested'),
  managed_database_credentials_read: emitted('warn', 'Managed database connection details (with password) read'),
  webhook_create: emitted('info', 'Webhook endpoint added'),
  webhook_update: emitted('info', 'Webhook endpoint changed'),
  webhook_delete: emitted('warn', 'Webhook endpoint deleted'),
  webhook_secret_rotate: emitted('warn', 'Webhook signing secret rotated'),
  webhook_disable: emitted('warn', 'Webhook endpoint disabled after failing for the retry window'),
  scim_client_create: emitted('warn', 'SCIM OAuth client created (with its first secret)'),
  scim_client_secret_create: emitted('warn', 'SCIM OAuth client secret added'),
  scim_client_revoke: emitted('warn', 'SCIM OAuth client revoked with every token it holds'),
  scim_client_update: emitted('warn', 'SCIM OAuth client keys (private_key_jwt) or trusted issuer (JWT-bearer grant) changed'),
  mfa_enroll: emitted('warn', 'End user enrolled a second factor'),
  mfa_remove: emitted('warn', 'End user removed a second factor'),
  mfa_challenge_success: emitted('info', 'Second step of a sign-in passed'),
  mfa_challenge_failure: emitted('warn', 'Wrong second-factor code at sign-in'),
  recovery_codes_regenerate: emitted('warn', 'New recovery codes issued (the old set is void)'),
  step_up_required: emitted('warn', 'A sign-in policy asked for a second step'),
  sign_in_blocked: emitted('warn', 'A sign-in policy refused a sign-in'),
  ssf_receiver_create: emitted('warn', 'Shared Signals receiver registered (OAuth client credentials issued)'),
  ssf_receiver_delete: emitted('warn', 'Shared Signals receiver deleted with its stream and tokens'),
} as const satisfies Record<string, CatalogEntry>;

export type AuditEventType = keyof typeof AUDIT_EVENTS;

export const AUDIT_EVENT_TYPES = Object.keys(AUDIT_EVENTS) as AuditEventType[];
export const AUDIT_SEVERITIES: AuditSeverity[] = ['info', 'warn', 'error'];
export const ACTOR_TYPES: ActorType[] = ['developer', 'end_user', 'api_token', 'oauth_client', 'system', 'anonymous'];
