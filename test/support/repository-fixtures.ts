import { randomUUID } from 'node:crypto';
import type { AuditRowValues } from '../../src/audit/audit.repository';
import type { SpFields } from '../../src/saml/sps/saml-sps.repository';
import type { NewConnection } from '../../src/sso-connections/sso-connections.repository';
import type { DataSource } from 'typeorm';

// Rows the repository tests make through more than one repository: one shape each, in one place.

/** A SAML service provider's fields, with an entity ID of its own. */
export const anSpFields = (name = 'App'): SpFields => ({
  name,
  spEntityId: `https://sp-${randomUUID()}.example.test/metadata`,
  acsUrl: 'https://sp.example.test/acs',
  nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  nameIdAttribute: 'email',
  signAssertions: true,
  attributeMapping: { mail: 'email' },
  spCertPem: null,
  defaultRelayState: null,
  isActive: true,
});

/** An audit event of the workspace, as the unit of work appends it. */
export const anAuditEvent = (workspaceId: string, overrides: Partial<AuditRowValues> = {}): AuditRowValues => ({
  workspaceId,
  eventType: 'scim_user_create',
  severity: 'info',
  actorType: 'scim_token',
  actorId: randomUUID(),
  actorEmail: null,
  targetType: 'EndUser',
  targetId: randomUUID(),
  oauthClientId: null,
  ipAddress: '203.0.113.7',
  userAgent: 'repo-spec',
  requestId: null,
  message: 'created',
  metadata: JSON.stringify({ changed: ['email'] }),
  createdAt: null,
  ...overrides,
});

/** An OpenID Connect SSO connection's fields (no JIT, a sealed secret nobody can open). */
export const anOidcConnection = (name = 'Acme OIDC'): NewConnection => ({
  name,
  protocol: 'oidc',
  jit: false,
  trustUpstreamMfa: false,
  mapping: {},
  oidcIssuer: 'https://login.acme.test',
  oidcClientId: 'client-1',
  oidcClientSecretEncrypted: 'sealed:not-a-real-secret',
  oidcTokenEndpointAuthMethod: 'client_secret_basic',
  oidcScopes: ['email'],
});

/**
 * An application (an oauth_clients row) of the workspace, first-party unless said. `clientId` is
 * the public id, `id` the row's.
 */
export async function anOAuthClientRow(
  dataSource: DataSource,
  workspaceId: string,
  options: { name?: string; secretHash?: string; redirectUris?: string[]; firstParty?: boolean } = {},
): Promise<{ id: string; clientId: string }> {
  const { name = 'Mobile app', secretHash = 'x', redirectUris = [], firstParty = true } = options;
  const clientId = `cli_${randomUUID().replace(/-/g, '')}`;
  const [row] = await dataSource.query<{ id: string }[]>(
    `INSERT INTO oauth_clients (workspace_id, client_id, client_secret_hash, name, redirect_uris, first_party)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [workspaceId, clientId, secretHash, name, JSON.stringify(redirectUris), firstParty],
  );
  return { id: row.id, clientId };
}
