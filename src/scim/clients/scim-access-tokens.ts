import { Injectable } from '@nestjs/common';
import { CredentialCache } from '../../common/auth/credential-cache';
import type { ScimPrincipal } from '../../common/auth/principal';
import { sha256Hex } from '../../common/crypto/tokens';
import { isUuid } from '../../common/ids';
import { AccessTokensService } from '../../oauth/tokens/access-tokens.service';
import { ScimClientStore } from './scim-client.store';
import { clientTag, secretTag } from './scim-client.views';
import { ScimClientsRepository } from './scim-clients.repository';

/**
 * /scim/v2 with an access token of a SCIM OAuth client. On the hot path: the token's SHA-256 hits
 * the credential cache, like a `scim_` token. On a miss: the signature and claims are checked in
 * memory, and one indexed read confirms that the client (and the secret it was issued under) is
 * unrevoked; the entry is tagged with both, so a revocation evicts it on every instance
 * (decision 0902).
 */
@Injectable()
export class ScimAccessTokens {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly store: ScimClientStore,
    private readonly clients: ScimClientsRepository,
    private readonly cache: CredentialCache,
  ) {}

  async authenticate(token: string): Promise<ScimPrincipal | undefined> {
    const hash = sha256Hex(token);
    return this.cache.resolve<ScimPrincipal>('scim', hash, async () => {
      const claims = await this.tokens.verify(token, this.store.audience);
      if (!claims || claims.clientKind !== this.store.kind || !isUuid(claims.clientRowId)) return undefined;
      const secretId = claims.credential.startsWith('secret:') ? claims.credential.slice('secret:'.length) : null;
      if (secretId !== null && !isUuid(secretId)) return undefined;
      const workspaceId = await this.clients.liveGrantWorkspace(claims.clientRowId, secretId);
      if (workspaceId !== claims.workspaceId) return undefined;
      return {
        principal: { kind: 'scim', tokenId: claims.jti, workspaceId, oauthClientId: claims.clientRowId },
        expiresAt: claims.expiresAt,
        tags: secretId ? [clientTag(claims.clientRowId), secretTag(secretId)] : [clientTag(claims.clientRowId)],
      };
    });
  }
}
