import { Injectable } from '@nestjs/common';
import { isUuid } from '../common/ids';
import type { Tx } from '../database/unit-of-work';
import type { WorkspaceRole } from './entities/workspace-member.entity';
import { WorkspacesRepository } from './workspaces.repository';

/**
 * The one membership check: a developer's role in a workspace, or null when they are not a member
 * (or the id is not a UUID, so it never reaches SQL). WorkspaceMemberGuard asks it for the
 * workspace a request names; a service that loads a resource by its own id asks it for the
 * resource's workspace, and answers the resource's 404 when the answer is null.
 */
@Injectable()
export class WorkspaceMembership {
  constructor(private readonly workspaces: WorkspacesRepository) {}

  roleOf(developerId: string, workspaceId: string, tx: Tx | null = null): Promise<WorkspaceRole | null> {
    if (!isUuid(workspaceId)) return Promise.resolve(null);
    return this.workspaces.role(tx, workspaceId, developerId);
  }
}
