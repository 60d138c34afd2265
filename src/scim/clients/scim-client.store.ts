import { Inject, Injectable } from '@nestjs/common';
import type { JWK } from 'jose';
import { Clock } from '../../common/clock';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ClientStore } from '../../oauth/clients/oauth-client-directory';
import type { ClientAuthMethod, OAuthClientStore, RegisteredClient } from '../../oauth/clients/registered-client';
import { CLIENT_CREDENTIALS, JWT_BEARER } from '../../oauth/token/grants';
import { SCIM_CLIENT_ID_PREFIX } from './scim-clients.service';
import { ScimClientsRepository } from './scim-clients.repository';

export const SCIM_SCOPE = 'scim';

/** The SCIM clients as the authorization server sees them: client credentials and JWT-bearer, scope `scim`, audience /scim/v2. */
@Injectable()
@ClientStore()
export class ScimClientStore implements OAuthClientStore {
  readonly kind = 'scim';
  readonly scopes = [SCIM_SCOPE];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: ScimClientsRepository,
    private readonly clock: Clock,
  ) {}

  /** The `aud` of their access tokens. */
  get audience(): string {
    return `${this.config.PUBLIC_BASE_URL}/scim/v2`;
  }

  owns(clientId: string): boolean {
    return clientId.startsWith(SCIM_CLIENT_ID_PREFIX);
  }

  async find(clientId: string): Promise<RegisteredClient | undefined> {
    const found = await this.clients.findForAuthentication(clientId, this.clock.now());
    if (!found) return undefined;
    const { client, secrets } = found;
    const keys = client.jwks ? { keys: client.jwks.keys.map((k): JWK => ({ ...k })) } : client.jwksUri ? { uri: client.jwksUri } : null;
    const authMethods: ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post'];
    if (keys) authMethods.push('private_key_jwt');
    const federation =
      client.federationIssuer && client.federationJwksUri && client.federationSubject
        ? {
            issuer: client.federationIssuer,
            keys: { uri: client.federationJwksUri },
            subject: client.federationSubject,
            audience: client.federationAudience,
          }
        : null;
    return {
      kind: this.kind,
      id: client.id,
      clientId: client.clientId,
      workspaceId: client.workspaceId,
      authMethods,
      grantTypes: federation ? [CLIENT_CREDENTIALS, JWT_BEARER] : [CLIENT_CREDENTIALS],
      scopes: this.scopes,
      audience: this.audience,
      secrets: secrets.map((s) => ({ id: s.id, hash: s.secretHash })),
      keys,
      federation,
    };
  }
}
