import { id, namedSchema, nullableTime, str, time, type ViewOf } from '../api-docs/response-schema';
import type { SsoAttempt } from './entities/sso-attempt.entity';
import type { SsoConnectionDomain } from './entities/sso-connection-domain.entity';
import type { SsoConnection } from './entities/sso-connection.entity';
import { UPSTREAM_REFUSAL_REASONS } from './upstream-refusals';

const mappingSchema = {
  type: 'object',
  description: 'Upstream claim (OIDC) or attribute (SAML) name per profile field; absent fields use the defaults.',
  properties: {
    email: { type: 'string' },
    given_name: { type: 'string' },
    family_name: { type: 'string' },
    groups: { type: 'string' },
    subject: { type: 'string' },
  },
} as const;

export const SsoConnectionSchema = namedSchema('SsoConnection', {
  type: 'object',
  description:
    "A workspace's enterprise SSO connection (external provider). Secrets are never shown. The URLs are the values to paste into the identity provider.",
  required: [
    'id',
    'workspace_id',
    'name',
    'protocol',
    'domains',
    'domain_verifications',
    'jit',
    'trust_upstream_mfa',
    'sign_in_url',
    'created_at',
    'updated_at',
  ],
  properties: {
    id,
    workspace_id: id,
    name: str('Acme Okta'),
    protocol: { type: 'string', enum: ['oidc', 'saml'], example: 'oidc' },
    domains: { type: 'array', items: { type: 'string' }, example: ['acme.com'] },
    domain_verifications: {
      type: 'array',
      example: [
        {
          domain: 'acme.com',
          status: 'pending',
          verified: false,
          verified_at: null,
          checked_at: null,
          txt_record_name: '_idsvc-verification.acme.com',
          txt_record_value: 'idsvc-domain-verification=3q2-7Jb0u4y9pYlQk1m8rA',
        },
      ],
      description:
        'Per domain: the DNS TXT record that proves the workspace holds it, and whether it was found (POST …/domains/{domain}/verify looks it up). Only verified domains route sign-ins to the connection.',
      items: {
        type: 'object',
        required: ['domain', 'status', 'verified', 'verified_at', 'checked_at', 'txt_record_name', 'txt_record_value'],
        properties: {
          domain: str('acme.com'),
          status: { type: 'string', enum: ['pending', 'verified'], example: 'pending' },
          verified: { type: 'boolean', example: false, description: 'status is verified' },
          verified_at: { ...nullableTime, example: null },
          checked_at: { ...nullableTime, example: null, description: 'The last lookup of the TXT record, found or not' },
          txt_record_name: str('_idsvc-verification.acme.com'),
          txt_record_value: str('idsvc-domain-verification=3q2-7Jb0u4y9pYlQk1m8rA'),
        },
      },
    },
    jit: { type: 'boolean', example: false, description: 'Create a person on the first sign-in of an unknown verified email.' },
    trust_upstream_mfa: { type: 'boolean', example: false, description: "The upstream's MFA claim counts as our mfa." },
    sign_in_url: str('https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/', {
      description: 'Starts a sign-in through this connection ("Test sign-in"); add ?next=<relative path>.',
    }),
    redirect_uri: str('https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/callback', {
      description: 'OIDC: the redirect URI to register at the provider.',
    }),
    jwks_uri: str('https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/jwks', {
      description: 'OIDC with private_key_jwt: our public key set to register at the provider.',
    }),
    sp_entity_id: str('https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/metadata', {
      description: 'SAML: our service provider entity id.',
    }),
    acs_url: str('https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/acs', {
      description: 'SAML: the Assertion Consumer Service URL (HTTP-POST).',
    }),
    sp_metadata_url: str('https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/metadata', {
      description: 'SAML: our service provider metadata.',
    }),
    oidc: {
      type: 'object',
      required: ['issuer', 'client_id', 'has_client_secret', 'token_endpoint_auth_method', 'scopes', 'claim_mapping'],
      properties: {
        issuer: str('https://login.acme.com'),
        client_id: str('0oa1b2c3d4'),
        has_client_secret: { type: 'boolean', example: true },
        token_endpoint_auth_method: {
          type: 'string',
          enum: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
          example: 'client_secret_basic',
        },
        scopes: { type: 'array', items: { type: 'string' }, example: ['openid', 'email', 'profile'] },
        claim_mapping: mappingSchema,
      },
    },
    saml: {
      type: 'object',
      required: ['idp_entity_id', 'idp_sso_url', 'idp_certificates', 'allow_unsolicited', 'attribute_mapping'],
      properties: {
        idp_entity_id: { type: 'string', nullable: true, example: 'http://www.okta.com/exk1a2b3c4' },
        idp_sso_url: { type: 'string', nullable: true, example: 'https://acme.okta.com/app/exk1a2b3c4/sso/saml' },
        idp_certificates: { type: 'array', items: { type: 'string' }, description: 'PEM, up to two.' },
        allow_unsolicited: { type: 'boolean', example: false },
        attribute_mapping: mappingSchema,
      },
    },
    created_at: time,
    updated_at: time,
  },
});

export const SsoAttemptSchema = namedSchema('SsoAttempt', {
  type: 'object',
  description: 'One upstream answer to the connection: accepted, or refused with its reason.',
  required: ['at', 'outcome'],
  properties: {
    at: time,
    outcome: { type: 'string', enum: ['success', 'failure'], example: 'failure' },
    reason: { type: 'string', enum: UPSTREAM_REFUSAL_REASONS, example: 'user_not_provisioned', description: 'Failures only.' },
    subject: str('00u1a2b3c4d5', { description: 'The upstream subject, when the answer got far enough to name one.' }),
    email: str('ada@acme.com', { description: 'The upstream email, when the answer got far enough to name one.' }),
  },
});

/** The URLs of a connection, from the service's public base URL. */
export function connectionUrls(base: string, connection: Pick<SsoConnection, 'id' | 'protocol'>) {
  const root = `${base}/auth/sso/${connection.id}`;
  return connection.protocol === 'oidc'
    ? { sign_in_url: `${root}/`, redirect_uri: `${root}/callback`, jwks_uri: `${root}/jwks` }
    : {
        sign_in_url: `${root}/`,
        sp_entity_id: `${root}/saml/metadata`,
        acs_url: `${root}/saml/acs`,
        sp_metadata_url: `${root}/saml/metadata`,
      };
}

/** The TXT record that proves a workspace holds a domain (decision 0440). */
export const DOMAIN_TXT_PREFIX = '_idsvc-verification';
export const DOMAIN_TXT_VALUE_PREFIX = 'idsvc-domain-verification=';

export function toConnectionView(base: string, c: SsoConnection, domains: SsoConnectionDomain[]): ViewOf<typeof SsoConnectionSchema> {
  const urls = connectionUrls(base, c);
  return {
    id: c.id,
    workspace_id: c.workspaceId,
    name: c.name,
    protocol: c.protocol,
    domains: domains.map((d) => d.domain),
    domain_verifications: domains.map((d) => ({
      domain: d.domain,
      status: d.verifiedAt ? ('verified' as const) : ('pending' as const),
      verified: d.verifiedAt !== null,
      verified_at: d.verifiedAt ? d.verifiedAt.toISOString() : null,
      checked_at: d.checkedAt ? d.checkedAt.toISOString() : null,
      txt_record_name: `${DOMAIN_TXT_PREFIX}.${d.domain}`,
      txt_record_value: `${DOMAIN_TXT_VALUE_PREFIX}${d.verificationToken}`,
    })),
    jit: c.jit,
    trust_upstream_mfa: c.trustUpstreamMfa,
    ...urls,
    ...(c.protocol === 'oidc'
      ? {
          oidc: {
            issuer: c.oidcIssuer ?? '',
            client_id: c.oidcClientId ?? '',
            has_client_secret: c.oidcClientSecretEncrypted !== null,
            token_endpoint_auth_method: c.oidcTokenEndpointAuthMethod ?? 'client_secret_basic',
            scopes: ['openid', ...c.oidcScopes.filter((s) => s !== 'openid')],
            claim_mapping: c.mapping,
          },
        }
      : {
          saml: {
            idp_entity_id: c.samlIdpEntityId,
            idp_sso_url: c.samlIdpSsoUrl,
            idp_certificates: c.samlIdpCertificates,
            allow_unsolicited: c.samlAllowUnsolicited,
            attribute_mapping: c.mapping,
          },
        }),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

export const toAttemptView = (a: SsoAttempt): ViewOf<typeof SsoAttemptSchema> => ({
  at: a.at.toISOString(),
  outcome: a.outcome,
  ...(a.reason ? { reason: a.reason as ViewOf<typeof SsoAttemptSchema>['reason'] } : {}),
  ...(a.subject ? { subject: a.subject } : {}),
  ...(a.email ? { email: a.email } : {}),
});
