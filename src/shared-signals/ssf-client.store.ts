import { Injectable } from '@nestjs/common';
import { ClientStore } from '../oauth/clients/oauth-client-directory';
import type { OAuthClientStore, RegisteredClient } from '../oauth/clients/registered-client';
import { OAuthServerInfo } from '../oauth/discovery/oauth-server-info';
import { CLIENT_CREDENTIALS } from '../oauth/token/grants';
import { SsfReceiversRepository } from './ssf-receivers.repository';

export const SSF_SCOPE = 'ssf';
export const SSF_CLIENT_ID_PREFIX = 'ssfr_';

/**
 * The Shared Signals receivers as the authorization server sees them (decision 0520): client
 * credentials with their one secret (basic or post), scope `ssf`, tokens for the audience
 * `<issuer>/ssf` (the stream management endpoints), nothing else.
 */
@Injectable()
@ClientStore()
export class SsfClientStore implements OAuthClientStore {
  readonly kind = 'ssf';
  readonly scopes = [SSF_SCOPE];

  constructor(
    private readonly receivers: SsfReceiversRepository,
    private readonly server: OAuthServerInfo,
  ) {}

  get audience(): string {
    return this.server.url('/ssf');
  }

  owns(clientId: string): boolean {
    return clientId.startsWith(SSF_CLIENT_ID_PREFIX);
  }

  async find(clientId: string): Promise<RegisteredClient | undefined> {
    const receiver = await this.receivers.findByClientId(clientId);
    if (!receiver) return undefined;
    return {
      kind: this.kind,
      id: receiver.id,
      clientId: receiver.clientId,
      workspaceId: receiver.workspaceId,
      authMethods: ['client_secret_basic', 'client_secret_post'],
      grantTypes: [CLIENT_CREDENTIALS],
      scopes: this.scopes,
      audience: this.audience,
      secrets: [{ id: receiver.id, hash: receiver.secretHash }],
      keys: null,
      federation: null,
    };
  }
}
