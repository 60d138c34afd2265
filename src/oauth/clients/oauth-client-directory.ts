import { Injectable } from '@nestjs/common';
import { isStorableText } from '../../common/body-guard';
import type { OAuthClientStore, RegisteredClient } from './registered-client';

const MAX_CLIENT_ID = 200;

/**
 * Every kind of client the authorization server serves. A feature module registers its store at
 * init (the SCIM clients here; the applications of the OpenID provider, decision 0900), so the core never imports a
 * feature and a feature never reshapes the core.
 */
@Injectable()
export class OAuthClientDirectory {
  private readonly stores: OAuthClientStore[] = [];

  register(store: OAuthClientStore): void {
    if (this.stores.some((s) => s.kind === store.kind)) throw new Error(`OAuth client store ${store.kind} registered twice`);
    this.stores.push(store);
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
