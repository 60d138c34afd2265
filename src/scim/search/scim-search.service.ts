import { Injectable } from '@nestjs/common';
import { GROUP_ATTRS, ResourceAttrs, USER_ATTRS } from '../filter/attributes';
import { FilterNode } from '../filter/ast';
import { filterToSql } from '../filter/to-sql';
import { ScimGroupsService } from '../groups/scim-groups.service';
import { ListQuery, listResponse } from '../protocol/list-query';
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
    const offset = q.startIndex - 1;
    const users = userProblem ? EMPTY : page(await this.users.list(workspaceId, q));
    // Groups continue where the users end: the page's remaining room, from the offset past all users.
    const groupQuery: ListQuery = { ...q, startIndex: Math.max(offset - users.total, 0) + 1, count: q.count - users.resources.length };
    const groups = groupProblem ? EMPTY : page(await this.groups.list(workspaceId, groupQuery));
    return listResponse(users.total + groups.total, q.startIndex, [...users.resources, ...groups.resources]);
  }
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
