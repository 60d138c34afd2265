import { Injectable } from '@nestjs/common';
import type { ViewOf } from '../api-docs/response-schema';
import type { RequestMeta } from '../common/request-context';
import { DirectoryAccountsService, type DirectoryUserView } from '../end-users/directory/directory-accounts.service';
import { GroupDirectoryService } from '../scim/groups/group-directory.service';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import type { DirectoryPersonSchema } from './directory.schemas';
import type { AddDirectoryUserDto, DirectoryListQueryDto } from './dto/directory.dto';

export type DirectoryPersonView = ViewOf<typeof DirectoryPersonSchema>;

/**
 * A workspace's directory for its developers (docs/directory.md): the people (end users, read
 * through the end-users module, which owns end_users) and the groups (the SCIM module's).
 */
@Injectable()
export class DirectoryService {
  constructor(
    private readonly accounts: DirectoryAccountsService,
    private readonly groups: GroupDirectoryService,
  ) {}

  users({ workspaceId }: WorkspaceScope, query: DirectoryListQueryDto) {
    return this.accounts.page(workspaceId, query);
  }

  async person({ workspaceId }: WorkspaceScope, userId: string): Promise<DirectoryPersonView> {
    const person = await this.accounts.person(workspaceId, userId);
    return { user: person.user, groups: await this.groups.ofUser(workspaceId, userId), sessions: person.sessions, factors: person.factors };
  }

  groupsPage({ workspaceId }: WorkspaceScope, query: DirectoryListQueryDto) {
    return this.groups.page(workspaceId, query);
  }

  addUser(
    { workspaceId, developer: principal }: WorkspaceScope,
    dto: AddDirectoryUserDto,
    request: RequestMeta,
  ): Promise<DirectoryUserView> {
    const actor = { type: 'developer' as const, id: principal.developerId, email: principal.email };
    return this.accounts.add(workspaceId, actor, dto, request);
  }
}
