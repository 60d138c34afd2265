import type { ScimPrincipal } from '../common/auth/principal';
import type { RequestMeta } from '../common/request-context';
import type { AuditFacts } from '../events/domain-events';

/**
 * The facts of a SCIM write's audit row, for `events.emit('scim_…', …)`: the token is the actor
 * (spec: actor_type api_token, actor_id = token id), or the SCIM OAuth client whose access token
 * it was (actor_type oauth_client, actor_id and oauth_client_id = the client's id).
 */
export function scimAuditFacts(
  actor: ScimPrincipal,
  target: { type: 'EndUser' | 'ScimGroup'; id: string; email?: string },
  request: RequestMeta,
  metadata: Record<string, unknown>,
): AuditFacts {
  if (actor.oauthClientId) {
    const client = actor.oauthClientId;
    return {
      workspaceId: actor.workspaceId,
      actor: { type: 'oauth_client', id: client },
      oauthClientId: client,
      target,
      request,
      metadata,
    };
  }
  const token = { type: 'api_token' as const, id: actor.tokenId, label: actor.label ?? null };
  return { workspaceId: actor.workspaceId, actor: token, target, request, metadata };
}
