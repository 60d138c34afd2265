import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CredentialCache } from '../../common/auth/credential-cache';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { generateToken, sha256Hex } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors';
import { isUuid } from '../../common/ids';
import type { RequestMeta } from '../../common/request-context';
import { Tx, UnitOfWork } from '../../database/unit-of-work';
import { type AuditFacts, byDeveloper } from '../../events/domain-events';
import { KeySets } from '../../oauth/assertions/key-sets';
import { WorkspaceMembership } from '../../workspaces/workspace-membership';
import type { WorkspaceScope } from '../../workspaces/workspace-scoped';
import { publicKeySet } from '../../oauth/assertions/public-key-set';
import { ScimOAuthClientSecret } from './entities/scim-oauth-client-secret.entity';
import { ScimOAuthClient } from './entities/scim-oauth-client.entity';
import { clientTag, secretTag, toClientView } from './scim-client.views';
import { CreateScimClientDto, CreateScimClientSecretDto, ScimClientFederationDto, ScimClientKeysDto } from './scim-client.dto';
import { ScimClientsRepository } from './scim-clients.repository';
import { COMMON_ERRORS, notFound } from '../../common/common.errors';
import { SCIM_ERRORS } from '../scim.errors';

export const SCIM_CLIENT_ID_PREFIX = 'scimc_';
const DEFAULT_SECRET_DAYS = 365;
/** Five years: a secret that outlives that is a static credential again. */
const MAX_SECRET_DAYS = 5 * 365;
/** Enough for overlapping rotations; a client hoarding secrets is a mistake worth a 409. */
const MAX_LIVE_SECRETS = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * SCIM OAuth clients (decision 0900): an identity provider's credentials for POST /oauth/token.
 * Secrets are shown once and stored as SHA-256; several can be live at once. Revoking a secret
 * or the client kills the access tokens issued under it on their next use, on every instance
 * (NOTIFY of the client's or secret's tag to the credential caches, decision 0902).
 */
@Injectable()
export class ScimClientsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clients: ScimClientsRepository,
    private readonly membership: WorkspaceMembership,
    private readonly keySets: KeySets,
    private readonly cache: CredentialCache,
    private readonly clock: Clock,
  ) {}

  async create({ workspaceId, developer: p }: WorkspaceScope, dto: CreateScimClientDto, request: RequestMeta) {
    const expiresAt = this.secretExpiry(dto.expires_at);
    return this.uow.run(async (tx, events) => {
      const client = await this.clients.insertClient(tx, workspaceId, {
        clientId: `${SCIM_CLIENT_ID_PREFIX}${randomBytes(16).toString('hex')}`,
        label: dto.label,
        createdBy: p.developerId,
      });
      const value = generateToken('scs_');
      const secret = await this.clients.insertSecret(tx, client.workspaceId, client.id, { secretHash: sha256Hex(value), expiresAt });
      events.emit(
        'scim_client_create',
        facts(p, client, request, { secret_id: secret.id, secret_expires_at: secret.expiresAt.toISOString() }),
      );
      return {
        id: client.id,
        client_id: client.clientId,
        label: client.label,
        workspace_id: client.workspaceId,
        created_at: client.createdAt.toISOString(),
        secret: { id: secret.id, value, expires_at: secret.expiresAt.toISOString() },
      };
    });
  }

  async list({ workspaceId }: WorkspaceScope) {
    const clients = await this.clients.listClients(workspaceId);
    const secrets = await this.clients.listSecrets(
      null,
      workspaceId,
      clients.map((c) => c.id),
    );
    return clients.map((c) => toClientView(c, secrets));
  }

  async get(p: DeveloperPrincipal, id: string) {
    const client = await this.load(null, p, id);
    return toClientView(client, await this.clients.listSecrets(null, client.workspaceId, [client.id]));
  }

  /** Idempotent: revoking a revoked client records nothing new. */
  async revoke(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    await this.uow.run(async (tx, events) => {
      const client = await this.load(tx, p, id);
      // This instance evicts after commit, before answering (the others on NOTIFY).
      events.afterCommit('evict the revoked SCIM client', () => this.cache.evict(clientTag(client.id)));
      if (client.revokedAt) return;
      await this.clients.markClientRevoked(tx, client.workspaceId, client.id);
      const notice = await this.clients.notifyRevoked(tx, clientTag(client.id));
      events.afterCommit('evict the revoked SCIM client everywhere', () => this.cache.evictEverywhere(notice));
      events.emit('scim_client_revoke', facts(p, client, request));
      events.emit('oauth_token_revoke', facts(p, client, request, { reason: 'client_revoked' }));
    });
  }

  async createSecret(p: DeveloperPrincipal, id: string, dto: CreateScimClientSecretDto, request: RequestMeta) {
    const expiresAt = this.secretExpiry(dto.expires_at);
    return this.uow.run(async (tx, events) => {
      const client = await this.load(tx, p, id);
      if (client.revokedAt) throw new DomainError(SCIM_ERRORS.client_revoked, 'the client is revoked; create a new one');
      if ((await this.clients.countLiveSecrets(tx, client.workspaceId, client.id, this.clock.now())) >= MAX_LIVE_SECRETS) {
        throw new DomainError(SCIM_ERRORS.too_many_secrets, `a client has at most ${MAX_LIVE_SECRETS} live secrets; revoke one first`, {});
      }
      const value = generateToken('scs_');
      const secret = await this.clients.insertSecret(tx, client.workspaceId, client.id, { secretHash: sha256Hex(value), expiresAt });
      events.emit('scim_client_secret_create', secretFacts(p, client, secret, request));
      return { id: secret.id, value, expires_at: secret.expiresAt.toISOString() };
    });
  }

  /** Idempotent: revoking a revoked secret records nothing new. */
  async revokeSecret(p: DeveloperPrincipal, id: string, secretId: string, request: RequestMeta): Promise<void> {
    if (!isUuid(secretId)) throw notFound('secret');
    await this.uow.run(async (tx, events) => {
      const client = await this.load(tx, p, id);
      const secret = await this.clients.findSecret(tx, client.workspaceId, client.id, secretId);
      if (!secret) throw notFound('secret');
      events.afterCommit('evict the revoked SCIM client secret', () => this.cache.evict(secretTag(secret.id)));
      if (secret.revokedAt) return;
      await this.clients.markSecretRevoked(tx, client.workspaceId, secret.id);
      const notice = await this.clients.notifyRevoked(tx, secretTag(secret.id));
      events.afterCommit('evict the revoked SCIM client secret everywhere', () => this.cache.evictEverywhere(notice));
      events.emit('oauth_token_revoke', secretFacts(p, client, secret, request, { reason: 'secret_revoked' }));
    });
  }

  async setKeys(p: DeveloperPrincipal, id: string, dto: ScimClientKeysDto, request: RequestMeta) {
    if ((dto.jwks === undefined) === (dto.jwks_uri === undefined)) {
      throw invalid('jwks', 'send exactly one of jwks_uri and jwks');
    }
    await this.load(null, p, id); // 404 for a stranger before anything about the body (or a DNS lookup)
    const jwks = dto.jwks === undefined ? null : await publicKeySet(dto.jwks);
    if (dto.jwks_uri !== undefined) await this.assertSafeUri('jwks_uri', dto.jwks_uri);
    return this.uow.run(async (tx, events) => {
      const client = await this.live(tx, p, id);
      await this.clients.setKeys(tx, client.workspaceId, client.id, { jwks, jwksUri: dto.jwks_uri ?? null });
      events.emit(
        'scim_client_update',
        facts(p, client, request, { changed: 'keys', jwks_uri: dto.jwks_uri ?? null, keys: jwks?.keys.length ?? null }),
      );
      return this.viewAfterChange(tx, client.id, client.workspaceId);
    });
  }

  async setFederation(p: DeveloperPrincipal, id: string, dto: ScimClientFederationDto, request: RequestMeta) {
    await this.load(null, p, id); // 404 for a stranger before a DNS lookup of their URL
    await this.assertSafeUri('jwks_uri', dto.jwks_uri);
    return this.uow.run(async (tx, events) => {
      const client = await this.live(tx, p, id);
      await this.clients.setFederation(tx, client.workspaceId, client.id, {
        federationIssuer: dto.issuer,
        federationJwksUri: dto.jwks_uri,
        federationSubject: dto.subject,
        federationAudience: dto.audience ?? null,
      });
      events.emit(
        'scim_client_update',
        facts(p, client, request, { changed: 'federation', issuer: dto.issuer, subject: dto.subject, audience: dto.audience ?? null }),
      );
      return this.viewAfterChange(tx, client.id, client.workspaceId);
    });
  }

  private async viewAfterChange(tx: Tx, id: string, workspaceId: string) {
    const client = (await this.clients.findById(tx, id))!;
    return toClientView(client, await this.clients.listSecrets(tx, workspaceId, [id]));
  }

  /** The client, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  private async load(tx: Tx | null, p: DeveloperPrincipal, id: string): Promise<ScimOAuthClient> {
    if (!isUuid(id)) throw notFound('SCIM client');
    const client = await this.clients.findById(tx, id);
    if (!client) throw notFound('SCIM client');
    if (!(await this.membership.roleOf(p.developerId, client.workspaceId, tx))) throw notFound('SCIM client');
    return client;
  }

  private async live(tx: Tx, p: DeveloperPrincipal, id: string): Promise<ScimOAuthClient> {
    const client = await this.load(tx, p, id);
    if (client.revokedAt) throw new DomainError(SCIM_ERRORS.client_revoked, 'the client is revoked; create a new one');
    return client;
  }

  private secretExpiry(requested: string | undefined): Date {
    const now = this.clock.now().getTime();
    if (requested === undefined) return new Date(now + DEFAULT_SECRET_DAYS * DAY_MS);
    const at = Date.parse(requested);
    if (!(at > now)) throw invalid('expires_at', 'must be in the future');
    if (at > now + MAX_SECRET_DAYS * DAY_MS) throw invalid('expires_at', `must be within ${MAX_SECRET_DAYS / 365} years`);
    return new Date(at);
  }

  private async assertSafeUri(field: string, uri: string): Promise<void> {
    const reason = await this.keySets.unsafeReason(uri);
    if (reason) throw invalid(field, `cannot be used: ${reason}`);
  }
}

function invalid(field: string, problem: string): DomainError {
  return new DomainError(COMMON_ERRORS.validation_failed, `${field} ${problem}`, { details: { [field]: [problem] } });
}

function facts(p: DeveloperPrincipal, client: ScimOAuthClient, request: RequestMeta, metadata: Record<string, unknown> = {}): AuditFacts {
  return {
    ...byDeveloper(p, client.workspaceId, { type: 'ScimClient', id: client.id }, request),
    oauthClientId: client.id,
    metadata: { label: client.label, client_id: client.clientId, ...metadata },
  };
}

function secretFacts(
  p: DeveloperPrincipal,
  client: ScimOAuthClient,
  secret: ScimOAuthClientSecret,
  request: RequestMeta,
  metadata: Record<string, unknown> = {},
): AuditFacts {
  return {
    ...facts(p, client, request, { secret_id: secret.id, expires_at: secret.expiresAt.toISOString(), ...metadata }),
    target: { type: 'ScimClientSecret', id: secret.id },
  };
}
