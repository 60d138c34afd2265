import type { RequestMeta } from '../../common/request-context';
import type { DomainEvents } from '../../events/domain-events';
import type { AuthenticatedClient } from '../clients/registered-client';
import type { IssuedTokens } from './grants';

/**
 * The `oauth_token_issue` facts of a token response. The token endpoint publishes them after the
 * grant, unless the grant recorded them itself in its own write (`IssuedTokens.recorded`: the
 * authorization-code exchange rides them on its one statement, decision 0917).
 */
export function tokenIssueEvent(
  client: AuthenticatedClient,
  grantType: string,
  issued: Pick<IssuedTokens, 'claims' | 'audit'>,
  request: RequestMeta,
): DomainEvents['oauth_token_issue'] {
  const { claims } = issued;
  return {
    workspaceId: client.client.workspaceId,
    actor: { type: 'oauth_client', id: client.client.id },
    oauthClientId: client.client.id,
    target: { type: 'AccessToken', id: claims.jti },
    request,
    metadata: {
      client_id: client.client.clientId,
      client_kind: client.client.kind,
      grant_type: grantType,
      auth_method: client.method,
      credential: claims.credential,
      scope: claims.scope,
      expires_at: claims.expiresAt.toISOString(),
      ...issued.audit,
    },
  };
}
