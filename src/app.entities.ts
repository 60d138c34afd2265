import { GeoCacheEntry } from './anomalies/entities/geo-cache-entry.entity';
import { SecurityAnomaly } from './anomalies/entities/security-anomaly.entity';
import { AuditChainEntry } from './audit/entities/audit-chain-entry.entity';
import { AuditCheckpoint } from './audit/entities/audit-checkpoint.entity';
import { AuditEvent } from './audit/entities/audit-event.entity';
import { DirectoryEvent } from './directory-events/entities/directory-event.entity';
import { DeveloperSession } from './developers/entities/developer-session.entity';
import { DeveloperToken } from './developers/entities/developer-token.entity';
import { Developer } from './developers/entities/developer.entity';
import { EndUserCode } from './email-verification/entities/end-user-code.entity';
import { EndUserRefreshToken } from './sessions/entities/end-user-refresh-token.entity';
import { EndUserSession } from './sessions/entities/end-user-session.entity';
import { EndUser } from './end-user-directory/entities/end-user.entity';
import { TokenDenylistEntry } from './sessions/entities/token-denylist-entry.entity';
import { EndUserMfaChallenge } from './second-factor/entities/mfa-challenge.entity';
import { EndUserRecoveryCode } from './second-factor/entities/end-user-recovery-code.entity';
import { EndUserTotp } from './second-factor/entities/end-user-totp.entity';
import { EndUserPasskey } from './second-factor/entities/end-user-passkey.entity';
import { WebAuthnChallenge } from './second-factor/entities/webauthn-challenge.entity';
import { SignInPolicy } from './second-factor/entities/sign-in-policy.entity';
import { Job } from './jobs/entities/job.entity';
import { EmailTemplate } from './mail/entities/email-template.entity';
import { MailOutboxMessage } from './mail/entities/mail-outbox-message.entity';
import { ManagedDatabaseBackup } from './managed-databases/entities/managed-database-backup.entity';
import { ManagedDatabaseRestore } from './managed-databases/entities/managed-database-restore.entity';
import { ManagedDatabase } from './managed-databases/entities/managed-database.entity';
import { OAuthClient } from './oauth-clients/entities/oauth-client.entity';
import { OAuthAssertionJti } from './oauth/assertions/entities/oauth-assertion-jti.entity';
import { OAuthSigningKey } from './oauth/keys/entities/oauth-signing-key.entity';
import { ScimOAuthClientSecret } from './scim/clients/entities/scim-oauth-client-secret.entity';
import { ScimOAuthClient } from './scim/clients/entities/scim-oauth-client.entity';
import { SamlServiceProvider } from './saml/sps/entities/saml-service-provider.entity';
import { SamlPendingRequest } from './saml/sso/entities/saml-pending-request.entity';
import { SamlSeenRequest } from './saml/sso/entities/saml-seen-request.entity';
import { SsoSamlAssertionId } from './sso-connections/saml/entities/sso-saml-assertion-id.entity';
import { SamlNameIdKey } from './saml/idp/entities/saml-nameid-key.entity';
import { ScimGroupChange } from './scim/groups/entities/scim-group-change.entity';
import { ScimGroupMember } from './scim/groups/entities/scim-group-member.entity';
import { ScimGroup } from './scim/groups/entities/scim-group.entity';
import { ScimToken } from './scim/tokens/entities/scim-token.entity';
import { ScimUserCount } from './scim/users/entities/scim-user-count.entity';
import { WorkspaceMember } from './workspaces/entities/workspace-member.entity';
import { SsfReceiver } from './shared-signals/entities/ssf-receiver.entity';
import { SsfSet } from './shared-signals/entities/ssf-set.entity';
import { SsfStreamSubject } from './shared-signals/entities/ssf-stream-subject.entity';
import { SsfStream } from './shared-signals/entities/ssf-stream.entity';
import { WebhookDelivery } from './webhooks/entities/webhook-delivery.entity';
import { WebhookSubscription } from './webhooks/entities/webhook-subscription.entity';
import { Workspace } from './workspaces/entities/workspace.entity';
import { OAuthAppSession } from './oidc/entities/oauth-app-session.entity';
import { OAuthAuthorizationCode } from './oidc/entities/oauth-authorization-code.entity';
import { OAuthConsent } from './oidc/entities/oauth-consent.entity';
import { SsoAttempt } from './sso-connections/entities/sso-attempt.entity';
import { SsoBinding } from './sso-connections/entities/sso-binding.entity';
import { SsoConnectionDomain } from './sso-connections/entities/sso-connection-domain.entity';
import { SsoConnection } from './sso-connections/entities/sso-connection.entity';
import { SsoOidcFlow } from './sso-connections/entities/sso-oidc-flow.entity';

/**
 * Every entity, one per table: a new table is one line here. The list lives in the app layer
 * because it names every feature; the database module below takes it as a parameter
 * (DatabaseModule.forRoot) and knows no feature. The migrations own the schema (synchronize stays
 * off); the schema test (test/spine/schema.e2e-spec.ts) proves these describe it exactly.
 */
export const ENTITIES = [
  OAuthAuthorizationCode,
  OAuthAppSession,
  OAuthConsent,
  GeoCacheEntry,
  SecurityAnomaly,
  AuditChainEntry,
  AuditCheckpoint,
  AuditEvent,
  DirectoryEvent,
  DeveloperSession,
  DeveloperToken,
  Developer,
  EndUserCode,
  EndUserRefreshToken,
  EndUserSession,
  EndUser,
  TokenDenylistEntry,
  EndUserTotp,
  EndUserPasskey,
  WebAuthnChallenge,
  EndUserRecoveryCode,
  EndUserMfaChallenge,
  SignInPolicy,
  Job,
  EmailTemplate,
  MailOutboxMessage,
  ManagedDatabaseBackup,
  ManagedDatabaseRestore,
  ManagedDatabase,
  OAuthClient,
  OAuthAssertionJti,
  OAuthSigningKey,
  SamlServiceProvider,
  SamlPendingRequest,
  SamlSeenRequest,
  SsoSamlAssertionId,
  SamlNameIdKey,
  ScimGroupChange,
  ScimGroupMember,
  ScimGroup,
  ScimToken,
  ScimOAuthClient,
  ScimOAuthClientSecret,
  ScimUserCount,
  SsoAttempt,
  SsoBinding,
  SsoConnectionDomain,
  SsoConnection,
  SsoOidcFlow,
  WorkspaceMember,
  SsfReceiver,
  SsfSet,
  SsfStream,
  SsfStreamSubject,
  WebhookDelivery,
  WebhookSubscription,
  Workspace,
];
