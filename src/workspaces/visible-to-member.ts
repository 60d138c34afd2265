import type { EntityManager, EntityTarget } from 'typeorm';
import { WorkspaceMember } from './entities/workspace-member.entity';

/**
 * A workspace's row (an OAuth client, an SSO connection, a webhook endpoint) by its id alone, if the
 * developer is a member of the workspace it belongs to: its tenancy is the developer's membership,
 * checked in the same query (404 otherwise, never 403 across tenants). For the repositories of
 * tables with `id` and `workspace_id`; run on the caller's transaction or on the pool's manager.
 */
export function findVisibleToMember<E extends { id: string; workspaceId: string }>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  developerId: string,
  id: string,
): Promise<E | null> {
  return manager
    .createQueryBuilder(entity, 'row')
    .innerJoin(WorkspaceMember, 'm', 'm.workspaceId = row.workspaceId AND m.developerId = :developerId', { developerId })
    .where('row.id = :id', { id })
    .getOne();
}
