import type { ScimOAuthClientSecret } from './entities/scim-oauth-client-secret.entity';
import type { ScimOAuthClient } from './entities/scim-oauth-client.entity';
import { allRequiredSchema, id, namedSchema, nullableTime, ref, str, time, type ViewOf } from '../../api-docs/response-schema';

export const ScimClientSecretSchema = allRequiredSchema('ScimClientSecret', {
  type: 'object',
  properties: { id, expires_at: time, created_at: time, revoked_at: nullableTime },
});

export const ScimClientSecretCreatedSchema = allRequiredSchema('ScimClientSecretCreated', {
  type: 'object',
  properties: {
    id,
    value: str('scs_Qm9uZ1x0cmVhbGx5YXNlY3JldGJ1dGFuZXhhbXBsZQ', {
      description: 'Shown once: give it to the identity provider as its client secret.',
    }),
    expires_at: time,
  },
});

/** What a SCIM client's view and its creation answer both show of it. */
const CLIENT_IDENTITY = {
  id,
  client_id: str('scimc_4f0d1e2a9b8c7d6e5f4a3b2c1d0e9f8a'),
  label: str('Entra ID provisioning'),
  workspace_id: id,
  created_at: time,
};

export const ScimClientSchema = namedSchema('ScimClient', {
  type: 'object',
  required: ['id', 'client_id', 'label', 'workspace_id', 'created_at', 'revoked_at', 'secrets', 'keys', 'federation'],
  properties: {
    ...CLIENT_IDENTITY,
    revoked_at: nullableTime,
    secrets: { type: 'array', items: ref(ScimClientSecretSchema) },
    keys: {
      type: 'object',
      nullable: true,
      description: 'Keys of its private_key_jwt assertions.',
      required: ['jwks_uri', 'jwks'],
      properties: {
        jwks_uri: { type: 'string', format: 'uri', nullable: true },
        jwks: { type: 'object', nullable: true, additionalProperties: true },
      },
    },
    federation: {
      type: 'object',
      nullable: true,
      description: 'The external issuer it trusts for the JWT-bearer grant.',
      required: ['issuer', 'jwks_uri', 'subject', 'audience'],
      properties: {
        issuer: str('https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/v2.0'),
        jwks_uri: { type: 'string', format: 'uri' },
        subject: str('5a8d0c0e-0000-4000-8000-000000000000'),
        audience: { type: 'string', nullable: true },
      },
    },
  },
});

export const ScimClientCreatedSchema = namedSchema('ScimClientCreated', {
  type: 'object',
  required: ['id', 'client_id', 'label', 'workspace_id', 'created_at', 'secret'],
  properties: {
    ...CLIENT_IDENTITY,
    secret: ref(ScimClientSecretCreatedSchema),
  },
});

/** Revocation tags in the credential cache (decision 0902): what a revoked client's or secret's tokens are evicted by. */
export const clientTag = (clientRowId: string) => `oauth-client:${clientRowId}`;
export const secretTag = (secretId: string) => `oauth-secret:${secretId}`;

const iso = (d: Date) => new Date(d).toISOString();
const isoOrNull = (d: Date | null) => (d ? iso(d) : null);

export const toSecretView = (s: ScimOAuthClientSecret): ViewOf<typeof ScimClientSecretSchema> => ({
  id: s.id,
  expires_at: iso(s.expiresAt),
  created_at: iso(s.createdAt),
  revoked_at: isoOrNull(s.revokedAt),
});

/** A client as the developer API shows it: never a secret's value or hash. */
export function toClientView(c: ScimOAuthClient, secrets: ScimOAuthClientSecret[]): ViewOf<typeof ScimClientSchema> {
  return {
    id: c.id,
    client_id: c.clientId,
    label: c.label,
    workspace_id: c.workspaceId,
    created_at: iso(c.createdAt),
    revoked_at: isoOrNull(c.revokedAt),
    secrets: secrets.filter((s) => s.clientId === c.id).map(toSecretView),
    keys: c.jwks || c.jwksUri ? { jwks_uri: c.jwksUri, jwks: c.jwks } : null,
    // The three are set together (ScimClientFederationDto requires each).
    federation:
      c.federationIssuer && c.federationJwksUri && c.federationSubject
        ? { issuer: c.federationIssuer, jwks_uri: c.federationJwksUri, subject: c.federationSubject, audience: c.federationAudience }
        : null,
  };
}
