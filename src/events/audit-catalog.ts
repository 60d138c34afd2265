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

export const AUDIT_EVENTS = {
  login_success: { severity: 'info', status: 'emitted', description: 'End user logged in' },
  login_failure: { severity: 'warn', status: 'emitted', description: 'Wrong password or user not found' },
  logout: { severity: 'info', status: 'emitted', description: 'End user logged out' },
  register: { severity: 'info', status: 'emitted', description: 'End-user account created' },
  email_verify_send: { severity: 'info', status: 'emitted', description: 'Verification email sent' },
  email_verify_confirm: { severity: 'info', status: 'emitted', description: 'Email verification completed' },
  password_reset_request: { severity: 'info', status: 'emitted', description: 'Reset email sent' },
  password_reset_confirm: { severity: 'warn', status: 'emitted', description: 'Reset completed' },
  password_update: { severity: 'warn', status: 'emitted', description: 'Authenticated user changed own password' },
  oauth_client_create: { severity: 'info', status: 'emitted', description: 'OAuth client created' },
  oauth_client_update: { severity: 'info', status: 'emitted', description: 'Client configuration changed' },
  oauth_client_delete: { severity: 'warn', status: 'emitted', description: 'Client deleted' },
  oauth_client_secret_reset: { severity: 'warn', status: 'emitted', description: 'Client secret rotated' },
  oauth_token_issue: { severity: 'info', status: 'emitted', description: 'Access or refresh token issued' },
  oauth_token_revoke: { severity: 'warn', status: 'emitted', description: 'Token revoked' },
  oauth_consent_grant: { severity: 'info', status: 'emitted', description: 'Consent granted to a client' },
  workspace_create: { severity: 'info', status: 'emitted', description: 'Workspace created' },
  workspace_update: { severity: 'info', status: 'emitted', description: 'Settings changed' },
  workspace_delete: { severity: 'warn', status: 'emitted', description: 'Workspace deleted' },
  workspace_member_add: { severity: 'warn', status: 'emitted', description: 'Developer added as member' },
  workspace_member_remove: { severity: 'warn', status: 'emitted', description: 'Member removed' },
  workspace_invite_send: { severity: 'info', status: 'planned', description: 'Invitation sent' },
  workspace_invite_accept: { severity: 'info', status: 'planned', description: 'Invitation accepted' },
  api_token_create: { severity: 'warn', status: 'emitted', description: 'API token created' },
  api_token_revoke: { severity: 'warn', status: 'emitted', description: 'API token revoked' },
  dev_token_create: { severity: 'warn', status: 'planned', description: 'Developer access token created' },
  dev_token_revoke: { severity: 'warn', status: 'planned', description: 'Developer access token revoked' },
  user_create: { severity: 'info', status: 'emitted', description: 'Developer created an end user' },
  user_update: { severity: 'info', status: 'planned', description: 'End-user profile changed' },
  user_delete: { severity: 'warn', status: 'planned', description: 'End user deleted' },
  user_group_assign: { severity: 'info', status: 'planned', description: 'User added to group' },
  user_group_unassign: { severity: 'info', status: 'planned', description: 'User removed from group' },
  external_provider_create: { severity: 'info', status: 'emitted', description: 'Provider configured' },
  external_provider_update: { severity: 'info', status: 'emitted', description: 'Provider reconfigured' },
  external_provider_delete: { severity: 'warn', status: 'emitted', description: 'Provider removed' },
  custom_db_connect: { severity: 'info', status: 'planned', description: 'Custom database connected' },
  custom_db_disconnect: { severity: 'warn', status: 'planned', description: 'Custom database disconnected' },
  custom_db_sync_fail: { severity: 'error', status: 'planned', description: 'Custom database sync failed' },
  scim_token_create: { severity: 'warn', status: 'emitted', description: 'SCIM token minted' },
  scim_token_revoke: { severity: 'warn', status: 'emitted', description: 'SCIM token revoked' },
  scim_user_create: { severity: 'info', status: 'emitted', description: 'User provisioned' },
  scim_user_update: { severity: 'info', status: 'emitted', description: 'PUT or PATCH changed a user' },
  scim_user_delete: { severity: 'warn', status: 'emitted', description: 'User deactivated' },
  scim_group_create: { severity: 'info', status: 'emitted', description: 'Group created' },
  scim_group_update: { severity: 'info', status: 'emitted', description: 'Membership change or rename' },
  scim_group_delete: { severity: 'warn', status: 'emitted', description: 'Group deleted' },
  saml_sp_create: { severity: 'info', status: 'emitted', description: 'Service provider registered' },
  saml_sp_update: { severity: 'info', status: 'emitted', description: 'Service provider changed' },
  saml_sp_delete: { severity: 'warn', status: 'emitted', description: 'Service provider deleted' },
  saml_sso_success: { severity: 'info', status: 'emitted', description: 'Signed assertion issued' },
  saml_sso_failure: { severity: 'warn', status: 'emitted', description: 'Malformed request, unknown SP, ACS URL mismatch, or build error' },
  anomaly_detected: { severity: 'warn', status: 'emitted', description: 'A detector fired' },
  anomaly_notified: { severity: 'info', status: 'emitted', description: 'User emailed' },
  // Appended after the spec's list (never renamed):
  managed_database_create: { severity: 'info', status: 'emitted', description: 'Managed database requested' },
  managed_database_delete: { severity: 'warn', status: 'emitted', description: 'Managed database deletion requested' },
  managed_database_provision_fail: { severity: 'error', status: 'emitted', description: 'Managed database could not be provisioned' },
  managed_database_backup_create: { severity: 'info', status: 'emitted', description: 'Managed database backup requested' },
  managed_database_restore: { severity: 'warn', status: 'emitted', description: 'Managed database restore from a backup requested' },
  managed_database_credentials_read: {
    severity: 'warn',
    status: 'emitted',
    description: 'Managed database connection details (with password) read',
  },
  webhook_create: { severity: 'info', status: 'emitted', description: 'Webhook endpoint added' },
  webhook_update: { severity: 'info', status: 'emitted', description: 'Webhook endpoint changed' },
  webhook_delete: { severity: 'warn', status: 'emitted', description: 'Webhook endpoint deleted' },
  webhook_secret_rotate: { severity: 'warn', status: 'emitted', description: 'Webhook signing secret rotated' },
  webhook_disable: { severity: 'warn', status: 'emitted', description: 'Webhook endpoint disabled after failing for the retry window' },
  scim_client_create: { severity: 'warn', status: 'emitted', description: 'SCIM OAuth client created (with its first secret)' },
  scim_client_secret_create: { severity: 'warn', status: 'emitted', description: 'SCIM OAuth client secret added' },
  scim_client_revoke: { severity: 'warn', status: 'emitted', description: 'SCIM OAuth client revoked with every token it holds' },
  scim_client_update: {
    severity: 'warn',
    status: 'emitted',
    description: 'SCIM OAuth client keys (private_key_jwt) or trusted issuer (JWT-bearer grant) changed',
  },
  mfa_enroll: { severity: 'warn', status: 'emitted', description: 'End user enrolled a second factor' },
  mfa_remove: { severity: 'warn', status: 'emitted', description: 'End user removed a second factor' },
  mfa_challenge_success: { severity: 'info', status: 'emitted', description: 'Second step of a sign-in passed' },
  mfa_challenge_failure: { severity: 'warn', status: 'emitted', description: 'Wrong second-factor code at sign-in' },
  recovery_codes_regenerate: { severity: 'warn', status: 'emitted', description: 'New recovery codes issued (the old set is void)' },
  step_up_required: { severity: 'warn', status: 'emitted', description: 'A sign-in policy asked for a second step' },
  sign_in_blocked: { severity: 'warn', status: 'emitted', description: 'A sign-in policy refused a sign-in' },
  ssf_receiver_create: {
    severity: 'warn',
    status: 'emitted',
    description: 'Shared Signals receiver registered (OAuth client credentials issued)',
  },
  ssf_receiver_delete: { severity: 'warn', status: 'emitted', description: 'Shared Signals receiver deleted with its stream and tokens' },
} as const satisfies Record<string, CatalogEntry>;

export type AuditEventType = keyof typeof AUDIT_EVENTS;

export const AUDIT_EVENT_TYPES = Object.keys(AUDIT_EVENTS) as AuditEventType[];
export const AUDIT_SEVERITIES: AuditSeverity[] = ['info', 'warn', 'error'];
export const ACTOR_TYPES: ActorType[] = ['developer', 'end_user', 'api_token', 'oauth_client', 'system', 'anonymous'];
