import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { isStorableText } from '../../common/body-guard';
import { declaration } from '../../common/declared-providers';
import type { OAuthClientStore, RegisteredClient } from './registered-client';

const MAX_CLIENT_ID = 200;

const stores = declaration('an OAuth client store');

/**
 * Declares a provider the store of one kind of client of the authorization server (decision 0964):
 * the SCIM clients, the Shared Signals receivers, the applications of the OpenID provider (decision 0900).
 */
export const ClientStore = () => stores.mark<OAuthClientStore>({});

/**
 * Every kind of client the authorization server serves: the providers declared with @ClientStore,
 * read once at bootstrap, so the core never imports a feature and a feature never reshapes the core.
 */
@Injectable()
export class OAuthClientDirectory implements OnApplicationBootstrap {
  private readonly stores: OAuthClientStore[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const { instance, name } of stores.providers<OAuthClientStore>(this.discovery)) {
      if (this.stores.some((s) => s.kind === instance.kind)) {
        throw new Error(`OAuth client store ${instance.kind} declared twice (${name})`);
      }
      this.stores.push(instance);
    }
  }

  /** The client, from the store that owns its id; `params`: the token request's, which its store may use (OAuthClientStore.find). */
  async find(clientId: string, params?: Readonly<Record<string, string>>): Promise<RegisteredClient | undefined> {
    // A NUL or an unpaired surrogate (from Basic credentials or an assertion's sub) names no client, and PostgreSQL refuses it.
    if (!clientId || clientId.length > MAX_CLIENT_ID || !isStorableText(clientId)) return undefined;
    const store = this.stores.find((s) => s.owns(clientId));
    return store?.find(clientId, params);
  }

  scopes(): string[] {
    return [...new Set(this.stores.flatMap((s) => s.scopes))];
  }
}
