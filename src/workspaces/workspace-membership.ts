import { Injectable } from '@nestjs/common';
import { CredentialCache } from '../common/auth/credential-cache';
import { isUuid } from '../common/ids';
import type { Tx } from '../database/unit-of-work';
import type { WorkspaceRole } from './entities/workspace-member.entity';
import { WorkspacesRepository } from './workspaces.repository';

/**
 * The one membership check: a developer's role in a workspace, or null when they are not a member
 * (or the id is not a UUID, so it never reaches SQL). WorkspaceMemberGuard asks it for the
 * workspace a request names; a service that loads a resource by its own id asks it for the
 * resource's workspace, and answers the resource's 404 when the answer is null. Outside a
 * transaction a membership comes from the credential cache when it holds one (decision 0185):
 * removing a member evicts it on every instance, so a workspace-scoped request with a cached
 * bearer token costs no round trip before its own work.
 */
@Injectable()
export class WorkspaceMembership {
  constructor(
    private readonly workspaces: WorkspacesRepository,
    private readonly cache: CredentialCache,
  ) {}

  async roleOf(developerId: string, workspaceId: string, tx: Tx | null = null): Promise<WorkspaceRole | null> {
    if (!isUuid(workspaceId)) return null;
    if (tx) return this.workspaces.role(tx, workspaceId, developerId);
    const role = await this.cache.membership(developerId, workspaceId, () => this.workspaces.role(null, workspaceId, developerId));
    return role as WorkspaceRole | null;
  }
}
