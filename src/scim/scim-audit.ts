import type { ScimPrincipal } from '../common/auth/principal';
import type { RequestMeta } from '../common/request-context';
import type { AuditEntry } from '../audit/audit.service';
import type { AuditEventType } from '../events/audit-catalog';

/** SCIM writes are audited with the token as actor (spec: actor_type api_token, actor_id = token id). */
export function scimAuditEntry(
  eventType: AuditEventType,
  actor: ScimPrincipal,
  target: { type: 'EndUser' | 'ScimGroup'; id: string },
  request: RequestMeta,
  metadata: Record<string, unknown>,
): AuditEntry {
  return { eventType, workspaceId: actor.workspaceId, actor: { type: 'api_token', id: actor.tokenId }, target, request, metadata };
}
