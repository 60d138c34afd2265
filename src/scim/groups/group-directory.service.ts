import { Injectable } from '@nestjs/common';
import type { ViewOf } from '../../api-docs/response-schema';
import { DirectoryGroupRow, GroupDirectoryRepository, GroupPosition } from './group-directory.repository';
import type { DirectoryGroupSchema, DirectoryGroupWithMembersSchema } from './group-directory.schemas';
import { ScimGroupsRepository } from './scim-groups.repository';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../common/keyset-cursor';

export type DirectoryGroupView = ViewOf<typeof DirectoryGroupSchema>;
export type DirectoryGroupWithMembersView = ViewOf<typeof DirectoryGroupWithMembersSchema>;

/** Members listed per group in a page of groups; member_count says how many there are. */
const MEMBERS_SHOWN = 100;

const toView = (g: DirectoryGroupRow): DirectoryGroupView => ({
  id: g.id,
  display_name: g.displayName,
  external_id: g.externalId,
  created_at: g.createdAt.toISOString(),
});

/** The workspace's groups as the developer's directory shows them (the console's Directory page). */
@Injectable()
export class GroupDirectoryService {
  constructor(
    private readonly directory: GroupDirectoryRepository,
    private readonly groups: ScimGroupsRepository,
  ) {}

  async page(
    workspaceId: string,
    query: { search?: string; cursor?: string; limit?: number },
  ): Promise<{ results: DirectoryGroupWithMembersView[]; next_cursor: string | null }> {
    const limit = query.limit ?? 50;
    const cursor = query.cursor ? decodeKeysetCursor(query.cursor) : null;
    const after: GroupPosition | null = cursor && { name: cursor.key, id: cursor.id };
    const rows = await this.directory.page(workspaceId, query.search?.trim() || undefined, after, limit + 1);
    const page = rows.slice(0, limit);
    const members = await this.groups.members(
      workspaceId,
      page.map((g) => g.id),
    );
    const results = page.map((g) => {
      const mine = members.filter((m) => m.groupId === g.id);
      return {
        ...toView(g),
        member_count: mine.length,
        members: mine.slice(0, MEMBERS_SHOWN).map((m) => ({
          id: m.userId,
          email: m.email,
          name: [m.firstName, m.lastName].filter(Boolean).join(' '),
        })),
      };
    });
    const last = page[page.length - 1];
    return { results, next_cursor: rows.length > limit && last ? encodeKeysetCursor(last.displayName.toLowerCase(), last.id) : null };
  }

  async ofUser(workspaceId: string, userId: string): Promise<DirectoryGroupView[]> {
    return (await this.directory.ofUser(workspaceId, userId)).map(toView);
  }
}
