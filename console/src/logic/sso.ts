import type { Schemas } from '../api';

type Connection = Schemas['SsoConnection'];
type Reason = NonNullable<Schemas['SsoAttempt']['reason']>;

export const PROTOCOL_NAMES = { oidc: 'OpenID Connect', saml: 'SAML 2.0' } as const;

/**
 * Each refusal reason of the attempts list in words for the developer (what went wrong and where to look),
 * not the sentence the person saw on the error page. A reason the API adds breaks the console's typecheck
 * until it has words here (a reason not yet in the typed client may be here first).
 */
export const REASON_WORDS: Record<Reason, string> & Record<string, string> = {
  user_not_provisioned: 'No person of the directory has this email, and creating accounts on first sign-in is off',
  user_deactivated: 'The person is deactivated in the directory (SCIM active: false)',
  email_unverified: 'The identity provider did not say the email is verified, so there was nothing to match by',
  identity_conflict: 'The subject was linked to another person meanwhile',
  sign_in_blocked: "The workspace's sign-in policy blocked this sign-in",
  mfa_required: 'A step-up was required and no trusted MFA came from the identity provider',
  signature_invalid: 'The answer was not signed by a key this connection trusts',
  audience_mismatch: 'The answer was meant for another client or service provider',
  issuer_mismatch: "The answer came from another issuer than the connection's",
  destination_mismatch: 'The SAML response was sent to another ACS URL',
  nonce_mismatch: "The ID token's nonce is not this sign-in's",
  state_mismatch: 'No sign-in of this browser was waiting for this answer (another browser, expired or forged)',
  response_expired: 'The token or assertion was outside its validity window (check the clocks)',
  response_replayed: 'The same answer was used before',
  response_invalid: 'The answer could not be read',
  subject_missing: 'The answer named no subject this connection can use (no persistent NameID or mapped subject attribute)',
  unsolicited_response: 'An IdP-initiated SAML response, and this connection does not allow them',
  upstream_denied: 'The identity provider refused the sign-in (for example access_denied: the person is not assigned to the app)',
  upstream_error: 'The identity provider could not be reached or failed (discovery, token endpoint)',
};

export function reasonInWords(reason: string | undefined): string {
  if (!reason) return '—';
  return REASON_WORDS[reason] ?? reason;
}

/** Domains or scopes typed in one field: split on commas and white space, lower-cased (domains), duplicates dropped. */
export function wordList(text: string, lowerCase = false): string[] {
  const words = text
    .split(/[\s,]+/)
    .map((w) => (lowerCase ? w.toLowerCase() : w))
    .filter(Boolean);
  return [...new Set(words)];
}

/**
 * The "Test sign-in" link: starts a sign-in through the connection and ends on the hosted login of the
 * workspace, which says who is signed in (or the error page, which says why not).
 */
export function testSignInUrl(connection: Pick<Connection, 'sign_in_url' | 'workspace_id'>): string {
  const next = `/auth/login/?workspace_id=${encodeURIComponent(connection.workspace_id)}`;
  return `${connection.sign_in_url}?next=${encodeURIComponent(next)}`;
}

export type DomainState = 'verified' | 'pending';

/** A domain's verification state: the API's `status` when it sends one, else from `verified`. */
export function domainState(domain: { verified?: boolean; status?: string }): DomainState {
  if (domain.status === 'verified' || domain.status === 'pending') return domain.status;
  return domain.verified ? 'verified' : 'pending';
}

export const IDPS = [
  { id: 'okta', label: 'Okta' },
  { id: 'entra', label: 'Entra ID' },
  { id: 'google', label: 'Google Workspace' },
] as const;

export type Idp = (typeof IDPS)[number]['id'];

export interface PasteValue {
  /** The name of the field at the identity provider. */
  field: string;
  value: string;
}

export interface IdpSetup {
  /** Where in the identity provider's admin console the values go. */
  where: string;
  values: PasteValue[];
  /** What to copy back from the identity provider into the connection. */
  bringBack: string;
}

/**
 * The values a connection's developer pastes into Okta, Entra ID or Google Workspace, under the names
 * those consoles give the fields (docs/sso-connections.md has the full steps).
 */
export function idpSetup(connection: Connection, idp: Idp): IdpSetup {
  return connection.protocol === 'saml' ? samlSetup(connection, idp) : oidcSetup(connection, idp);
}

function samlSetup(c: Connection, idp: Idp): IdpSetup {
  const entityId = c.sp_entity_id ?? '';
  const acs = c.acs_url ?? '';
  const metadata = c.sp_metadata_url ?? '';
  switch (idp) {
    case 'okta':
      return {
        where: 'Applications → Create App Integration → SAML 2.0 → Configure SAML',
        values: [
          { field: 'Single sign-on URL', value: acs },
          { field: 'Audience URI (SP Entity ID)', value: entityId },
          { field: 'Name ID format', value: 'Persistent (or EmailAddress)' },
        ],
        bringBack: 'On the Sign On tab, copy the Metadata URL (or the IdP metadata XML) into this connection.',
      };
    case 'entra':
      return {
        where: 'Enterprise applications → New application → Create your own → Single sign-on → SAML',
        values: [
          { field: 'Identifier (Entity ID)', value: entityId },
          { field: 'Reply URL (Assertion Consumer Service URL)', value: acs },
          { field: 'Or: Upload metadata file (from this URL)', value: metadata },
        ],
        bringBack: 'Under SAML Certificates, copy the App Federation Metadata Url into this connection.',
      };
    case 'google':
      return {
        where: 'Admin console → Apps → Web and mobile apps → Add app → Add custom SAML app',
        values: [
          { field: 'ACS URL', value: acs },
          { field: 'Entity ID', value: entityId },
          { field: 'Name ID format', value: 'EMAIL' },
        ],
        bringBack: 'On "Google Identity Provider details", download the IdP metadata and paste it into this connection.',
      };
  }
}

function oidcSetup(c: Connection, idp: Idp): IdpSetup {
  const redirect = c.redirect_uri ?? '';
  switch (idp) {
    case 'okta':
      return {
        where: 'Applications → Create App Integration → OIDC - OpenID Connect → Web Application',
        values: [
          { field: 'Sign-in redirect URIs', value: redirect },
          { field: 'Grant type', value: 'Authorization Code' },
        ],
        bringBack: 'Copy the Client ID and Client secret; the issuer is https://<your-org>.okta.com.',
      };
    case 'entra':
      return {
        where: 'App registrations → New registration → Redirect URI (Web)',
        values: [
          { field: 'Redirect URI (Web)', value: redirect },
          { field: 'Token configuration → Add optional claim (ID)', value: 'email' },
        ],
        bringBack:
          'Copy the Application (client) ID and a client secret from Certificates & secrets; the issuer is https://login.microsoftonline.com/<tenant-id>/v2.0.',
      };
    case 'google':
      return {
        where: 'Google Cloud console → APIs & Services → Credentials → Create OAuth client ID → Web application',
        values: [{ field: 'Authorized redirect URIs', value: redirect }],
        bringBack: 'Copy the Client ID and Client secret; the issuer is https://accounts.google.com.',
      };
  }
}
