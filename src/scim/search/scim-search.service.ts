import { Injectable } from '@nestjs/common';
import { GROUP_ATTRS, ResourceAttrs, USER_ATTRS } from '../filter/attributes';
import { FilterNode } from '../filter/ast';
import { filterToSql } from '../filter/to-sql';
import { ScimGroupsService } from '../groups/scim-groups.service';
import { decodeCursor, PagePosition } from '../protocol/cursor';
import { cursorListResponse, ListQuery, listResponse } from '../protocol/list-query';
import { ScimError } from '../scim.errors';
import { ScimUsersService } from '../users/scim-users.service';

type Json = Record<string, unknown>;

/**
 * POST /scim/v2/.search (RFC 7644 §3.4.3): Users, then Groups, in one list. Each type's own
 * list does the filtering, paging and projection, so the root search answers exactly what
 * the two GETs would. A type is searched when the filter names only attributes it has (a
 * User-only filter finds no groups); a filter neither type understands is invalidFilter.
 */
@Injectable()
export class ScimSearchService {
  constructor(
    private readonly users: ScimUsersService,
    private readonly groups: ScimGroupsService,
  ) {}

  async search(workspaceId: string, q: ListQuery): Promise<Json> {
    const userProblem = filterProblem(q.filter, USER_ATTRS);
    const groupProblem = filterProblem(q.filter, GROUP_ATTRS);
    if (userProblem && groupProblem) {
      throw new ScimError('invalidFilter', `the filter applies to no resource type: ${userProblem.message}; ${groupProblem.message}`);
    }
    if (q.cursor) return this.searchByCursor(workspaceId, q, !userProblem, !groupProblem);
    const offset = q.startIndex - 1;
    const users = userProblem ? EMPTY : page(await this.users.list(workspaceId, q));
    // Groups continue where the users end: the page's remaining room, from the offset past all users.
    const groupQuery: ListQuery = { ...q, startIndex: Math.max(offset - users.total, 0) + 1, count: q.count - users.resources.length };
    const groups = groupProblem ? EMPTY : page(await this.groups.list(workspaceId, groupQuery));
    return listResponse(users.total + groups.total, q.startIndex, [...users.resources, ...groups.resources]);
  }

  /**
   * Cursor paging across both types (RFC 9865): users first, then groups. A user cursor continues the
   * users (and fills the page's room with groups once they end); a group cursor continues the groups.
   */
  private async searchByCursor(workspaceId: string, q: ListQuery, withUsers: boolean, withGroups: boolean): Promise<Json> {
    const cursor = q.cursor!;
    const onGroups = !cursor.start && cursor.kind === 'g';
    const totalOnly = (list: (ws: string, q: ListQuery) => Promise<Json>) => list(workspaceId, { ...q, cursor: { start: true }, count: 0 });
    const users = withUsers ? await (onGroups ? totalOnly((w, l) => this.users.list(w, l)) : this.users.list(workspaceId, q)) : undefined;
    const userPage = users ? page(users) : EMPTY;
    if (users?.nextCursor) {
      const groupTotal = withGroups ? page(await totalOnly((w, l) => this.groups.list(w, l))).total : 0;
      return cursorListResponse(userPage.total + groupTotal, userPage.resources, decodeNext(users.nextCursor));
    }
    const room = q.count - userPage.resources.length;
    const groupCursor: ListQuery['cursor'] = onGroups ? cursor : { start: true };
    const groups = withGroups ? await this.groups.list(workspaceId, { ...q, cursor: groupCursor, count: room }) : undefined;
    const groupPage = groups ? page(groups) : EMPTY;
    // The users filled the page exactly: the next page is the groups from their start.
    const next =
      groups?.nextCursor !== undefined
        ? decodeNext(groups.nextCursor)
        : room === 0 && groupPage.total > 0 && !onGroups
          ? GROUPS_START
          : null;
    return cursorListResponse(userPage.total + groupPage.total, [...userPage.resources, ...groupPage.resources], next);
  }
}

/** Before every group: the position (epoch, nil id), so "after it" is the whole list. */
const GROUPS_START: PagePosition = { kind: 'g', createdUs: '0', id: '00000000-0000-0000-0000-000000000000' };

function decodeNext(value: unknown): PagePosition | null {
  if (typeof value !== 'string') return null;
  const cursor = decodeCursor(value);
  return cursor.start ? null : cursor;
}

const EMPTY = { total: 0, resources: [] as unknown[] };

function filterProblem(filter: FilterNode | undefined, attrs: ResourceAttrs): ScimError | undefined {
  if (!filter) return undefined;
  try {
    filterToSql(filter, attrs, []);
    return undefined;
  } catch (err) {
    if (err instanceof ScimError) return err;
    throw err;
  }
}

/** totalResults and Resources of a ListResponse built by listResponse(). */
function page(list: Json): { total: number; resources: unknown[] } {
  const total = list.totalResults;
  const resources = list.Resources;
  if (typeof total !== 'number' || !Array.isArray(resources)) throw new Error('not a SCIM ListResponse');
  return { total, resources };
}
