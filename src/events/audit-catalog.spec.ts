import { AUDIT_EVENTS, AUDIT_EVENT_TYPES } from './audit-catalog';

/**
 * Event types are a published contract (stored rows, webhooks, SIEM rules filter on them): the
 * catalog is append-only. This list is every type ever published, in order; a new type is added
 * at the end of both, and nothing here is renamed or removed.
 */
const PUBLISHED = [
  'login_success',
  'login_failure',
  'logout',
  'register',
  'email_verify_send',
  'email_verify_confirm',
  'password_reset_request',
  'password_reset_confirm',
  'password_update',
  'oauth_client_create',
  'oauth_client_update',
  'oauth_client_delete',
  'oauth_client_secret_reset',
  'oauth_token_issue',
  'oauth_token_revoke',
  'oauth_consent_grant',
  'workspace_create',
  'workspace_update',
  'workspace_delete',
  'workspace_member_add',
  'workspace_member_remove',
  'workspace_invite_send',
  'workspace_invite_accept',
  'api_token_create',
  'api_token_revoke',
  'dev_token_create',
  'dev_token_revoke',
  'user_create',
  'user_update',
  'user_delete',
  'user_group_assign',
  'user_group_unassign',
  'external_provider_create',
  'external_provider_update',
  'external_provider_delete',
  'custom_db_connect',
  'custom_db_disconnect',
  'custom_db_sync_fail',
  'scim_token_create',
  'scim_token_revoke',
  'scim_user_create',
  'scim_user_update',
  'scim_user_delete',
  'scim_group_create',
  'scim_group_update',
  'scim_group_delete',
  'saml_sp_create',
  'saml_sp_update',
  'saml_sp_delete',
  'saml_sso_success',
  'saml_sso_failure',
  'anomaly_detected',
  'anomaly_notified',
  'managed_database_create',
  'managed_database_delete',
  'managed_database_provision_fail',
  'managed_database_backup_create',
  'managed_database_restore',
  'managed_database_credentials_read',
  'webhook_create',
  'webhook_update',
  'webhook_delete',
  'webhook_secret_rotate',
  'webhook_disable',
  'scim_client_create',
  'scim_client_secret_create',
  'scim_client_revoke',
  'scim_client_update',
  'mfa_enroll',
  'mfa_remove',
  'mfa_challenge_success',
  'mfa_challenge_failure',
  'recovery_codes_regenerate',
  'step_up_required',
  'sign_in_blocked',
];

describe('audit event catalog', () => {
  it('keeps every published event type, in its place: new ones are only appended', () => {
    expect(AUDIT_EVENT_TYPES.slice(0, PUBLISHED.length)).toEqual(PUBLISHED);
  });

  it('has the second-factor events (decisions 0310-0326) with the catalog severities', () => {
    expect(AUDIT_EVENTS.mfa_enroll.severity).toBe('warn');
    expect(AUDIT_EVENTS.mfa_challenge_success.severity).toBe('info');
    expect(AUDIT_EVENTS.mfa_challenge_failure.severity).toBe('warn');
    expect(AUDIT_EVENTS.sign_in_blocked.severity).toBe('warn');
    for (const type of ['mfa_remove', 'recovery_codes_regenerate', 'step_up_required'] as const) {
      expect(AUDIT_EVENTS[type].status).toBe('emitted');
    }
  });
});
