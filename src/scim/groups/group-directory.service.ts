import { Injectable } from '@nestjs/common';
import type { ViewOf } from '../../api-docs/response-schema';
import { COMMON_ERRORS } from '../../common/common.errors';
import { DomainError } from '../../common/errors';
import { isUuid } from '../../common/ids';
import { DirectoryGroupRow, GroupDirectoryRepository, GroupPosition } from './group-directory.repository';
import type { DirectoryGroupSchema, DirectoryGroupWithMembersSchema } from './group-directory.schemas';
import { ScimGroupsRepository } from './scim-groups.repository';

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

function decodeCursor(cursor: string): GroupPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && isUuid(value[1])) {
      return { name: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw new DomainError(COMMON_ERRORS.validation_failed, 'cursor is not a next_cursor this API gave', {
    details: { cursor: ['must be the next_cursor of a previous page'] },
  });
}

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
    const after = query.cursor ? decodeCursor(query.cursor) : null;
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
    const next =
      rows.length > limit && last ? Buffer.from(JSON.stringify([last.displayName.toLowerCase(), last.id])).toString('base64url') : null;
    return { results, next_cursor: next };
  }

  async ofUser(workspaceId: string, userId: string): Promise<DirectoryGroupView[]> {
    return (await this.directory.ofUser(workspaceId, userId)).map(toView);
  }
}
