import type { ScimOAuthClientSecret } from './entities/scim-oauth-client-secret.entity';
import type { ScimOAuthClient } from './entities/scim-oauth-client.entity';

/** Revocation tags in the credential cache (decision 0902): what a revoked client's or secret's tokens are evicted by. */
export const clientTag = (clientRowId: string) => `oauth-client:${clientRowId}`;
export const secretTag = (secretId: string) => `oauth-secret:${secretId}`;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const toSecretView = (s: ScimOAuthClientSecret) => ({
  id: s.id,
  expires_at: iso(s.expiresAt),
  created_at: iso(s.createdAt),
  revoked_at: iso(s.revokedAt),
});

/** A client as the developer API shows it: never a secret's value or hash. */
export function toClientView(c: ScimOAuthClient, secrets: ScimOAuthClientSecret[]) {
  return {
    id: c.id,
    client_id: c.clientId,
    label: c.label,
    workspace_id: c.workspaceId,
    created_at: iso(c.createdAt),
    revoked_at: iso(c.revokedAt),
    secrets: secrets.filter((s) => s.clientId === c.id).map(toSecretView),
    keys: c.jwks || c.jwksUri ? { jwks_uri: c.jwksUri, jwks: c.jwks } : null,
    federation: c.federationIssuer
      ? { issuer: c.federationIssuer, jwks_uri: c.federationJwksUri, subject: c.federationSubject, audience: c.federationAudience }
      : null,
  };
}
