import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { generateToken, sha256Hex } from '../common/crypto/tokens';
import { DomainError } from '../common/errors';
import { RequestMeta } from '../common/request-context';
import { EmittedEvents, Tx, UnitOfWork } from '../database/unit-of-work';
import { byDeveloper } from '../events/domain-events';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { CreateOAuthClientDto, UpdateOAuthClientDto } from './dto/oauth-client.dto';
import { OAuthClient } from './entities/oauth-client.entity';
import { OAuthClientChange, OAuthClientsRepository } from './oauth-clients.repository';
import { publicKeySet } from '../oauth/assertions/public-key-set';
import { COMMON_ERRORS, findOr404 } from '../common/common.errors';
import type { ViewOf } from '../api-docs/response-schema';
import type { OAuthClientSchema } from './oauth-clients.schemas';
import { isPrivateUseRedirectUri } from './redirect-uris';

type OAuthClientEvent = 'oauth_client_create' | 'oauth_client_update' | 'oauth_client_delete' | 'oauth_client_secret_reset';

const toView = (c: OAuthClient): ViewOf<typeof OAuthClientSchema> => ({
  id: c.id,
  client_id: c.clientId,
  name: c.name,
  workspace_id: c.workspaceId,
  redirect_uris: c.redirectUris,
  post_logout_redirect_uris: c.postLogoutRedirectUris,
  client_type: c.clientType,
  first_party: c.firstParty,
  allow_signup: c.allowSignup,
  subject_type: c.subjectType,
  id_token_signed_response_alg: c.idTokenAlg,
  require_pkce: c.requirePkce,
  token_endpoint_auth_method: c.clientType === 'public' ? 'none' : c.jwks ? 'private_key_jwt' : 'client_secret_basic',
  jwks: c.jwks,
  created_at: c.createdAt.toISOString(),
});

/** The OpenID client fields of a create or update body, keys validated (a JWK Set of public keys only). */
async function openIdSettings(dto: UpdateOAuthClientDto): Promise<OAuthClientChange> {
  return {
    postLogoutRedirectUris: dto.post_logout_redirect_uris,
    firstParty: dto.first_party,
    subjectType: dto.subject_type,
    idTokenAlg: dto.id_token_signed_response_alg,
    jwks: dto.jwks === undefined ? undefined : await publicKeySet(dto.jwks),
    allowSignup: dto.allow_signup,
    requirePkce: dto.require_pkce,
  };
}

const invalid = (field: string, problem: string) =>
  new DomainError(COMMON_ERRORS.validation_failed, `${field} ${problem}`, { details: { [field]: [problem] } });

/**
 * RFC 8252 §8.4: private-use URI scheme redirects belong to native apps, which are public clients (any app on the
 * device may claim the scheme, so a confidential client's code could be caught by another app).
 */
function checkRedirectUris(clientType: 'confidential' | 'public', uris: readonly string[] | undefined): void {
  if (clientType === 'public' || !uris?.some(isPrivateUseRedirectUri)) return;
  throw invalid('redirect_uris', 'may use a private-use URI scheme only on a public client (client_type public, RFC 8252 §8.4)');
}

/** RFC 9700 §2.1.1: a public client has no other proof that the code is its own, so PKCE stays on (decision 0930). */
function checkPkcePolicy(clientType: 'confidential' | 'public', requirePkce: boolean | undefined): void {
  if (clientType === 'public' && requirePkce === false) {
    throw invalid('require_pkce', 'cannot be false on a public client (PKCE is its only proof, RFC 9700 §2.1.1)');
  }
}

/** The applications end users belong to. Secrets are shown once and stored as SHA-256. */
@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clients: OAuthClientsRepository,
  ) {}

  async create({ workspaceId, developer: p }: WorkspaceScope, dto: CreateOAuthClientDto, request: RequestMeta) {
    return this.uow.run(async (tx, events) => {
      const settings = await openIdSettings(dto);
      const isPublic = dto.client_type === 'public';
      if (isPublic && settings.jwks) throw invalid('jwks', 'cannot be set on a public client (it has no credential)');
      checkRedirectUris(isPublic ? 'public' : 'confidential', dto.redirect_uris);
      checkPkcePolicy(isPublic ? 'public' : 'confidential', dto.require_pkce);
      // A public client has no secret: the hash of an unrevealed random value, which nothing accepts (its auth method is none).
      const secret = generateToken('cs_');
      const client = await this.clients.insert(tx, workspaceId, {
        clientId: `cli_${randomBytes(12).toString('hex')}`,
        clientSecretHash: sha256Hex(secret),
        name: dto.name,
        redirectUris: dto.redirect_uris ?? [],
        clientType: isPublic ? 'public' : 'confidential',
        postLogoutRedirectUris: settings.postLogoutRedirectUris ?? [],
        firstParty: settings.firstParty ?? true,
        subjectType: settings.subjectType ?? 'public',
        idTokenAlg: settings.idTokenAlg ?? 'RS256',
        jwks: settings.jwks ?? null,
        allowSignup: settings.allowSignup ?? false,
        requirePkce: settings.requirePkce ?? true,
      });
      this.record(events, 'oauth_client_create', p, client, request);
      return { ...toView(client), client_secret: isPublic ? null : secret };
    });
  }

  async list({ workspaceId }: WorkspaceScope) {
    return (await this.clients.listForWorkspace(workspaceId)).map(toView);
  }

  async get(p: DeveloperPrincipal, id: string) {
    return toView(await this.load(null, p, id));
  }

  async update(p: DeveloperPrincipal, id: string, dto: UpdateOAuthClientDto, request: RequestMeta) {
    return this.uow.run(async (tx, events) => {
      const client = await this.load(tx, p, id);
      if (dto.client_type !== undefined && dto.client_type !== client.clientType) throw invalid('client_type', 'is fixed at creation');
      const settings = await openIdSettings(dto);
      if (client.clientType === 'public' && settings.jwks) throw invalid('jwks', 'cannot be set on a public client (it has no credential)');
      checkRedirectUris(client.clientType, dto.redirect_uris);
      checkPkcePolicy(client.clientType, dto.require_pkce);
      const change = { ...settings, name: dto.name, redirectUris: dto.redirect_uris };
      await this.clients.update(tx, client.workspaceId, id, change);
      const updated: OAuthClient = {
        ...client,
        name: dto.name ?? client.name,
        redirectUris: dto.redirect_uris ?? client.redirectUris,
        postLogoutRedirectUris: settings.postLogoutRedirectUris ?? client.postLogoutRedirectUris,
        firstParty: settings.firstParty ?? client.firstParty,
        subjectType: settings.subjectType ?? client.subjectType,
        idTokenAlg: settings.idTokenAlg ?? client.idTokenAlg,
        jwks: settings.jwks ?? client.jwks,
        allowSignup: settings.allowSignup ?? client.allowSignup,
        requirePkce: settings.requirePkce ?? client.requirePkce,
      };
      this.record(events, 'oauth_client_update', p, updated, request, { fields: Object.keys(dto) });
      return toView(updated);
    });
  }

  async remove(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    await this.uow.run(async (tx, events) => {
      const client = await this.load(tx, p, id);
      await this.clients.delete(tx, client.workspaceId, id);
      this.record(events, 'oauth_client_delete', p, client, request);
    });
  }

  async rotateSecret(p: DeveloperPrincipal, id: string, request: RequestMeta) {
    return this.uow.run(async (tx, events) => {
      const client = await this.load(tx, p, id);
      if (client.clientType === 'public') throw new DomainError(COMMON_ERRORS.bad_request, 'a public client has no secret');
      const secret = generateToken('cs_');
      await this.clients.replaceSecret(tx, client.workspaceId, id, sha256Hex(secret));
      this.record(events, 'oauth_client_secret_reset', p, client, request);
      return { ...toView(client), client_secret: secret };
    });
  }

  /** The client, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  private load(tx: Tx | null, p: DeveloperPrincipal, id: string): Promise<OAuthClient> {
    return findOr404('OAuth client', id, (clientId) => this.clients.findVisibleTo(tx, p.developerId, clientId));
  }

  private record(
    events: EmittedEvents,
    name: OAuthClientEvent,
    p: DeveloperPrincipal,
    client: OAuthClient,
    request: RequestMeta,
    metadata?: Record<string, unknown>,
  ): void {
    events.emit(name, {
      ...byDeveloper(p, client.workspaceId, { type: 'OAuthClient', id: client.id }, request),
      oauthClientId: client.id,
      metadata: { name: client.name, ...metadata },
    });
  }
}
