import { Inject, Injectable } from '@nestjs/common';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { COMMON_ERRORS, findOr404 } from '../common/common.errors';
import { SecretBox } from '../common/crypto/secret-box';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { type EmittedEvents, type Tx, UnitOfWork } from '../database/unit-of-work';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import type { CreateSsoConnectionDto, OidcSettingsDto, SamlSettingsDto, UpdateSsoConnectionDto } from './dto/sso-connection.dto';
import type { ProfileMapping, SsoConnection, SsoProtocol } from './entities/sso-connection.entity';
import { fetchIdpMetadata } from './saml/idp-metadata-fetch';
import { IdpMetadataError, importIdpMetadata } from './saml/idp-metadata-import';
import { toAttemptView, toConnectionView } from './sso-connection-views';
import { SSO_CONNECTION_ERRORS } from './sso-connections.errors';
import { type ConnectionChange, DomainTaken, SsoConnectionsRepository } from './sso-connections.repository';
import { SsoDomainsRepository } from './domains/sso-domains.repository';
import { byDeveloper } from '../events/domain-events';

type ConnectionEvent = 'external_provider_create' | 'external_provider_update' | 'external_provider_delete';

/** A request's settings: one half per protocol, of which a connection takes its own. */
type ProtocolSettings = { oidc?: OidcSettingsDto; saml?: SamlSettingsDto };
const CONNECTION_OF: Record<SsoProtocol, string> = { oidc: 'an oidc connection', saml: 'a saml connection' };

const invalid = (field: string, problem: string) =>
  new DomainError(COMMON_ERRORS.validation_failed, `${field}: ${problem}`, { details: { [field]: [problem] } });

/**
 * The developer API of enterprise SSO connections (docs/sso-connections.md): members of a
 * workspace create, read, change and remove its connections; every change is audited
 * (external_provider_*). The OIDC client secret and our private_key_jwt key are sealed with
 * SECRETS_ENCRYPTION_KEY and never shown.
 */
@Injectable()
export class SsoConnectionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly connections: SsoConnectionsRepository,
    private readonly domainRows: SsoDomainsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {}

  async create({ workspaceId, developer: p }: WorkspaceScope, dto: CreateSsoConnectionDto, request: RequestMeta) {
    dto = await this.withImportedMetadata(dto);
    const settings = this.settings(dto.protocol, dto, null);
    return this.uow.run(async (tx, events) => {
      const connection = await this.connections.insert(tx, workspaceId, {
        name: dto.name.trim(),
        protocol: dto.protocol,
        jit: dto.jit ?? false,
        trustUpstreamMfa: dto.trust_upstream_mfa ?? false,
        mapping: {},
        ...settings,
      });
      await this.setDomains(tx, connection, dto.domains ?? []);
      this.record(events, 'external_provider_create', p, connection, request, { name: connection.name, protocol: connection.protocol });
      return this.view(tx, connection);
    });
  }

  async list({ workspaceId }: WorkspaceScope) {
    const all = await this.connections.listForWorkspace(workspaceId);
    const domains = await this.connections.domains(
      null,
      workspaceId,
      all.map((c) => c.id),
    );
    const base = this.config.PUBLIC_BASE_URL;
    return all.map((c) =>
      toConnectionView(
        base,
        c,
        domains.filter((d) => d.connectionId === c.id),
      ),
    );
  }

  async get(p: DeveloperPrincipal, id: string) {
    return this.view(null, await this.load(null, p, id));
  }

  async update(p: DeveloperPrincipal, id: string, dto: UpdateSsoConnectionDto, request: RequestMeta) {
    dto = await this.withImportedMetadata(dto);
    return this.uow.run(async (tx, events) => {
      const connection = await this.load(tx, p, id);
      const change: ConnectionChange = {
        name: dto.name?.trim(),
        jit: dto.jit,
        trustUpstreamMfa: dto.trust_upstream_mfa,
        ...(dto.oidc || dto.saml ? this.settings(connection.protocol, dto, connection) : {}),
      };
      const updated = await this.connections.update(tx, connection.workspaceId, connection.id, change);
      if (dto.domains !== undefined) await this.setDomains(tx, updated, dto.domains);
      const fields = Object.keys(dto).filter((k) => dto[k as keyof UpdateSsoConnectionDto] !== undefined);
      this.record(events, 'external_provider_update', p, updated, request, { fields });
      return this.view(tx, updated);
    });
  }

  async remove(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    await this.uow.run(async (tx, events) => {
      const connection = await this.load(tx, p, id);
      await this.connections.delete(tx, connection.workspaceId, connection.id);
      this.record(events, 'external_provider_delete', p, connection, request, { name: connection.name, protocol: connection.protocol });
    });
  }

  async attempts(p: DeveloperPrincipal, id: string, limit: number) {
    const connection = await this.load(null, p, id);
    return (await this.connections.attempts(connection.workspaceId, connection.id, limit)).map(toAttemptView);
  }

  /** The connection, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  load(tx: Tx | null, p: DeveloperPrincipal, id: string): Promise<SsoConnection> {
    return findOr404('SSO connection', id, (connectionId) => this.connections.findVisibleTo(tx, p.developerId, connectionId));
  }

  private async view(tx: Tx | null, connection: SsoConnection) {
    const domains = await this.connections.domains(tx, connection.workspaceId, [connection.id]);
    return toConnectionView(this.config.PUBLIC_BASE_URL, connection, domains);
  }

  private async setDomains(tx: Tx, connection: SsoConnection, domains: string[]): Promise<void> {
    const unique = [...new Set(domains.map((d) => d.toLowerCase()))];
    // A domain another workspace verified cannot be claimed here (decision 0440); one already listed stays.
    const listed = new Set((await this.connections.domains(tx, connection.workspaceId, [connection.id])).map((d) => d.domain));
    const claimed = await this.domainRows.claimedElsewhere(
      tx,
      connection.workspaceId,
      unique.filter((d) => !listed.has(d)),
    );
    if (claimed.length) {
      throw new DomainError(SSO_CONNECTION_ERRORS.domain_claimed, `${claimed.join(', ')}: verified by another workspace`, {
        details: { domains: claimed.map((d) => `${d} is verified by another workspace`) },
      });
    }
    try {
      await this.connections.setDomains(tx, connection.workspaceId, connection.id, unique, () => randomBytes(18).toString('base64url'));
    } catch (err) {
      if (!(err instanceof DomainTaken)) throw err;
      throw new DomainError(
        SSO_CONNECTION_ERRORS.domain_taken,
        'Another connection of this workspace already serves one of these domains',
        {
          details: { domains: ['already served by another connection of this workspace'] },
        },
      );
    }
  }

  /**
   * The columns of the connection's protocol from the request's settings for it, over the current
   * connection's on an update; settings of the other protocol are refused.
   */
  private settings(protocol: SsoProtocol, dto: ProtocolSettings, current: SsoConnection | null): ConnectionChange {
    const other = protocol === 'oidc' ? 'saml' : 'oidc';
    if (dto[other]) throw invalid(other, `not allowed for ${CONNECTION_OF[protocol]}`);
    if (protocol === 'oidc' && dto.oidc) return this.oidcSettings(dto.oidc, current);
    if (protocol === 'saml' && dto.saml) return this.samlSettings(dto.saml, current);
    throw invalid(protocol, `required for ${CONNECTION_OF[protocol]}`);
  }

  /**
   * The OIDC columns from the request, over the current connection's on an update. A secret is
   * required by the client_secret_* methods; private_key_jwt gets a key pair of ours (its public
   * half is the connection's jwks_uri), kept across updates.
   */
  private oidcSettings(dto: OidcSettingsDto, current: SsoConnection | null): ConnectionChange {
    const method = dto.token_endpoint_auth_method ?? current?.oidcTokenEndpointAuthMethod ?? 'client_secret_basic';
    const secret = dto.client_secret !== undefined ? this.box.encrypt(dto.client_secret) : (current?.oidcClientSecretEncrypted ?? null);
    if (method !== 'private_key_jwt' && !secret) throw invalid('oidc.client_secret', `required with ${method}`);
    const privateKey =
      method === 'private_key_jwt' ? (current?.oidcPrivateKeyEncrypted ?? this.box.encrypt(JSON.stringify(newClientKey()))) : null;
    return {
      oidcIssuer: dto.issuer.replace(/\/+$/, ''),
      oidcClientId: dto.client_id,
      oidcClientSecretEncrypted: method === 'private_key_jwt' ? null : secret,
      oidcTokenEndpointAuthMethod: method,
      oidcPrivateKeyEncrypted: privateKey,
      oidcScopes: [...new Set(dto.scopes ?? current?.oidcScopes ?? ['email', 'profile'])].filter((s) => s !== 'openid'),
      mapping: mappingOf(dto.claim_mapping ?? current?.mapping ?? {}),
    };
  }

  /**
   * SAML settings sent as the IdP's metadata (pasted, or fetched once from its URL through the outbound
   * guard) become the entity id, SSO URL and certificates it names, read before any write.
   */
  private async withImportedMetadata<T extends { saml?: SamlSettingsDto }>(dto: T): Promise<T> {
    const saml = dto.saml;
    if (!saml || (saml.metadata_xml === undefined && saml.metadata_url === undefined)) return dto;
    const field = saml.metadata_xml !== undefined ? 'saml.metadata_xml' : 'saml.metadata_url';
    if (saml.metadata_xml !== undefined && saml.metadata_url !== undefined) {
      throw invalid(field, 'send metadata_xml or metadata_url, not both');
    }
    if (saml.idp_entity_id !== undefined || saml.idp_sso_url !== undefined || saml.idp_certificates !== undefined) {
      throw invalid(field, 'replaces idp_entity_id, idp_sso_url and idp_certificates; send one or the other');
    }
    try {
      const xml = saml.metadata_xml ?? (await fetchIdpMetadata(saml.metadata_url!, this.config.OAUTH_JWKS_ALLOW_PRIVATE_TARGETS));
      const imported = importIdpMetadata(xml);
      const { metadata_xml: _xml, metadata_url: _url, ...rest } = saml;
      const settings = {
        ...rest,
        idp_entity_id: imported.idpEntityId,
        idp_sso_url: imported.idpSsoUrl,
        idp_certificates: imported.idpCertificates,
      };
      return { ...dto, saml: settings };
    } catch (err) {
      if (err instanceof IdpMetadataError) throw invalid(field, err.message);
      throw err;
    }
  }

  /** The SAML columns from the request (settings the IdP's metadata import fills are the SAML half's, src/sso-connections/saml/). */
  private samlSettings(dto: SamlSettingsDto, current: SsoConnection | null): ConnectionChange {
    return {
      samlIdpEntityId: dto.idp_entity_id ?? current?.samlIdpEntityId ?? null,
      samlIdpSsoUrl: dto.idp_sso_url ?? current?.samlIdpSsoUrl ?? null,
      samlIdpCertificates: dto.idp_certificates ?? current?.samlIdpCertificates ?? [],
      samlAllowUnsolicited: dto.allow_unsolicited ?? current?.samlAllowUnsolicited ?? false,
      mapping: mappingOf(dto.attribute_mapping ?? current?.mapping ?? {}),
    };
  }

  private record(
    events: EmittedEvents,
    name: ConnectionEvent,
    p: DeveloperPrincipal,
    connection: SsoConnection,
    request: RequestMeta,
    metadata: Record<string, unknown> = {},
  ): void {
    events.emit(name, {
      ...byDeveloper(p, connection.workspaceId, { type: 'external_provider', id: connection.id }, request),
      metadata,
    });
  }
}

/** Only the mapping's known fields, as plain strings (a DTO instance is not stored as is). */
function mappingOf(source: ProfileMapping): ProfileMapping {
  const keys = ['email', 'given_name', 'family_name', 'groups', 'subject'] as const;
  return Object.fromEntries(keys.flatMap((k) => (typeof source[k] === 'string' ? [[k, source[k]]] : []))) as ProfileMapping;
}

/** An ES256 key pair for private_key_jwt, as a private JWK with its kid. */
function newClientKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'ES256', use: 'sig' };
}
