import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { generateToken, sha256Hex } from '../common/crypto/tokens';
import { notFound } from '../common/errors';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { EmittedEvents, Tx, UnitOfWork } from '../database/unit-of-work';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { CreateOAuthClientDto, UpdateOAuthClientDto } from './dto/oauth-client.dto';
import { OAuthClient } from './entities/oauth-client.entity';
import { OAuthClientsRepository } from './oauth-clients.repository';

type OAuthClientEvent = 'oauth_client_create' | 'oauth_client_update' | 'oauth_client_delete' | 'oauth_client_secret_reset';

const toView = (c: OAuthClient) => ({
  id: c.id,
  client_id: c.clientId,
  name: c.name,
  workspace_id: c.workspaceId,
  redirect_uris: c.redirectUris,
  created_at: c.createdAt.toISOString(),
});

/** The applications end users belong to. Secrets are shown once and stored as SHA-256. */
@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clients: OAuthClientsRepository,
  ) {}

  async create(p: DeveloperPrincipal, { workspaceId }: WorkspaceScope, dto: CreateOAuthClientDto, request: RequestMeta) {
    return this.uow.run(async (tx, events) => {
      const secret = generateToken('cs_');
      const client = await this.clients.insert(tx, workspaceId, {
        clientId: `cli_${randomBytes(12).toString('hex')}`,
        clientSecretHash: sha256Hex(secret),
        name: dto.name,
        redirectUris: dto.redirect_uris ?? [],
      });
      this.record(events, 'oauth_client_create', p, client, request);
      return { ...toView(client), client_secret: secret };
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
      await this.clients.update(tx, client.workspaceId, id, { name: dto.name, redirectUris: dto.redirect_uris });
      const updated: OAuthClient = { ...client, name: dto.name ?? client.name, redirectUris: dto.redirect_uris ?? client.redirectUris };
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
      const secret = generateToken('cs_');
      await this.clients.replaceSecret(tx, client.workspaceId, id, sha256Hex(secret));
      this.record(events, 'oauth_client_secret_reset', p, client, request);
      return { ...toView(client), client_secret: secret };
    });
  }

  /** The client, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  private async load(tx: Tx | null, p: DeveloperPrincipal, id: string): Promise<OAuthClient> {
    if (!isUuid(id)) throw notFound('OAuth client');
    const client = await this.clients.findVisibleTo(tx, p.developerId, id);
    if (!client) throw notFound('OAuth client');
    return client;
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
      workspaceId: client.workspaceId,
      request,
      metadata: { name: client.name, ...metadata },
      actor: { type: 'developer', id: p.developerId, email: p.email },
      target: { type: 'OAuthClient', id: client.id },
      oauthClientId: client.id,
    });
  }
}
