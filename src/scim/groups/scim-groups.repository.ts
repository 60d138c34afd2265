import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { computed, entityColumns, NO_ROW } from '../../database/row-shape';
import { first, rewritten, run, runRaw, statement, statementFamily } from '../../database/statement';
import { RIDER_COLUMNS, settleRiders, withRiderColumns } from '../../database/statement-riders';
import type { StatementRider } from '../../events/domain-events';
import type { Tx } from '../../database/unit-of-work';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { FilterNode } from '../filter/ast';
import { type CollectionStatements, collectionPages, type CompiledFilter, pageStatements } from '../protocol/collection-pages';
import type { PageSource } from '../protocol/paging';
import { GROUP_ATTRS } from '../filter/attributes';
import { parseFilter } from '../filter/parser';
import { filterToSql, valueFilterToSql } from '../filter/to-sql';
import { MemberStep } from '../patch/apply-group';
import { ScimGroupMember } from './entities/scim-group-member.entity';
import { ScimGroup } from './entities/scim-group.entity';

/** A group as the SCIM module shows it. */
export type GroupRow = Pick<ScimGroup, 'id' | 'displayName' | 'externalId' | 'createdAt' | 'updatedAt'>;

/** What a rename replaced. */
export interface Renamed {
  previousDisplayName: string;
  previousExternalId: string | null;
}

const GROUP = entityColumns(ScimGroup, ['id', 'displayName', 'externalId', 'createdAt', 'updatedAt']);
const MEMBER = entityColumns(ScimGroupMember, ['groupId', 'userId']).and(entityColumns(EndUser, ['email', 'firstName', 'lastName']));

/** A user a membership step added or removed: its id and userName (the directory events name both). */
const MEMBER_CHANGE = entityColumns(ScimGroupMember, ['userId']).and(entityColumns(EndUser, ['email']));
export type MemberChange = Pick<ScimGroupMember, 'userId'> & Pick<EndUser, 'email'>;

/** What a membership step did, user by user. */
export interface StepResult {
  added: MemberChange[];
  removed: MemberChange[];
}

/** A member of a group with the user attributes its `display` is made of. */
export type MemberRow = Pick<ScimGroupMember, 'groupId' | 'userId'> & Pick<EndUser, 'email' | 'firstName' | 'lastName'>;

const COLUMNS = 'g.id, g.display_name, g.external_id, g.created_at, g.updated_at';
/** As COLUMNS, with updated_at the group's meta.lastModified: the latest of its own and its membership changes'. */
const READ_COLUMNS = `g.id, g.display_name, g.external_id, g.created_at,
  GREATEST(g.updated_at, (SELECT max(c.changed_at) FROM scim_group_changes c WHERE c.group_id = g.id)) AS updated_at`;
const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;
/** A CTE recording a membership change of group $GROUP when CTE $ROWS changed any row (see recordMembershipChange). */
const CHANGED = `changed AS (
         INSERT INTO scim_group_changes AS c (group_id, backend_pid, changed_at)
         SELECT $GROUP, pg_backend_pid(), now() WHERE EXISTS (SELECT 1 FROM $ROWS)
         ON CONFLICT (group_id, backend_pid) DO UPDATE SET changed_at = GREATEST(c.changed_at, excluded.changed_at)
       )`;

const FIND = statement('scim-groups.find', `SELECT ${READ_COLUMNS} FROM scim_groups g WHERE g.workspace_id = $1 AND g.id = $2`, GROUP);
const EXISTS = statement('scim-groups.exists', `SELECT 1 FROM scim_groups WHERE workspace_id = $1 AND id = $2`, NO_ROW);
const RENAME = statement(
  'scim-groups.rename',
  `UPDATE scim_groups g SET display_name = CASE WHEN $3::boolean THEN $4::text ELSE g.display_name END,
              external_id = CASE WHEN $5::boolean THEN $6::text ELSE g.external_id END, updated_at = now()
         FROM (SELECT id, display_name, external_id FROM scim_groups
                WHERE workspace_id = $1 AND id = $2
                  AND (($3::boolean AND display_name IS DISTINCT FROM $4::text) OR ($5::boolean AND external_id IS DISTINCT FROM $6::text))
                FOR NO KEY UPDATE) old
        WHERE g.id = old.id
        RETURNING old.display_name AS previous_display_name, old.external_id AS previous_external_id`,
  computed({ previousDisplayName: ['previous_display_name', 'text'], previousExternalId: ['previous_external_id', 'text?'] }),
);
const RECORD_CHANGE = statement(
  'scim-groups.record-membership-change',
  `INSERT INTO scim_group_changes AS c (group_id, backend_pid, changed_at)
       SELECT id, pg_backend_pid(), now() FROM unnest($1::uuid[]) AS ids(id)
       ON CONFLICT (group_id, backend_pid) DO UPDATE SET changed_at = GREATEST(c.changed_at, excluded.changed_at)`,
  NO_ROW,
);
/** The catalog's filter sample: `displayName eq "…"`, as the filter compiler writes it. */
const NAME_EQ = compile('', parseFilter('displayName eq "Engineering"')).where;
const COUNT = statementFamily(
  'scim-groups.count',
  computed({ total: 'number' }),
  (where: string) => `SELECT count(*)::int AS total FROM scim_groups g WHERE ${where}`,
  { all: ['g.workspace_id = $1'], filtered: [NAME_EQ] },
);
/** Every statement unnamed: a compiled filter's text varies with the client's filter. */
const GROUP_PAGES: CollectionStatements<GroupRow> = {
  compile,
  count: (where) => COUNT(where),
  ...pageStatements(
    'scim-groups',
    GROUP,
    { table: 'scim_groups', alias: 'g', columns: READ_COLUMNS },
    { all: 'g.workspace_id = $1', filtered: NAME_EQ },
  ),
};
const MEMBERS = statement(
  'scim-groups.members',
  `SELECT gm.group_id, gm.user_id, u.email, u.first_name, u.last_name
         FROM scim_group_members gm JOIN end_users u ON u.id = gm.user_id
        WHERE gm.workspace_id = $1 AND gm.group_id = ANY($2::uuid[])
        ORDER BY gm.seq`,
  MEMBER,
);
const INSERT = statement(
  'scim-groups.insert',
  `INSERT INTO scim_groups AS g (workspace_id, display_name, external_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
  GROUP,
);
const DELETE = statement(
  'scim-groups.delete',
  `DELETE FROM scim_groups g WHERE g.workspace_id = $1 AND g.id = $2 RETURNING ${COLUMNS}`,
  GROUP,
);
const REMOVE_USER_FROM_ALL = statement(
  'scim-groups.remove-user-from-all',
  `DELETE FROM scim_group_members WHERE workspace_id = $1 AND user_id = $2 RETURNING group_id`,
  entityColumns(ScimGroupMember, ['groupId']),
);
/** In request order (seq is assigned per row as inserted), so members list in the order they were sent. */
const ADD = statement(
  'scim-groups.add-members',
  `WITH added AS (
         INSERT INTO scim_group_members (group_id, user_id, workspace_id)
         SELECT g.id, u.id, $1 FROM scim_groups g
           CROSS JOIN unnest($3::uuid[]) WITH ORDINALITY AS m(id, n) JOIN end_users u ON u.id = m.id
          WHERE g.workspace_id = $1 AND g.id = $2 AND u.workspace_id = $1 AND COALESCE(u.oauth_client_id, ${NIL}) = ${NIL}
          ORDER BY m.n
         ON CONFLICT DO NOTHING RETURNING user_id, seq
       ), ${CHANGED.replace('$GROUP', '$2').replace('$ROWS', 'added')}
       SELECT a.user_id, u.email${RIDER_COLUMNS} FROM added a JOIN end_users u ON u.id = a.user_id ORDER BY a.seq`,
  MEMBER_CHANGE,
);
const BY_IDS = '(gm.user_id = ANY($3::uuid[]))';
const ALL_BUT_IDS = 'NOT (gm.user_id = ANY($3::uuid[]))';
/** Removes the members `cond` selects (from code, or a client's value filter compiled to SQL) and records the change. */
const REMOVE = statementFamily(
  'scim-groups.remove-members',
  MEMBER_CHANGE,
  (cond: string) => `WITH removed AS (
         DELETE FROM scim_group_members gm WHERE gm.workspace_id = $1 AND gm.group_id = $2 AND ${cond} RETURNING gm.user_id, gm.seq
       ), ${CHANGED.replace('$GROUP', '$2').replace('$ROWS', 'removed')}
       SELECT r.user_id, u.email${RIDER_COLUMNS} FROM removed r JOIN end_users u ON u.id = r.user_id ORDER BY r.seq`,
  { 'by-ids': [BY_IDS], all: ['TRUE'], 'all-but-ids': [ALL_BUT_IDS], 'value-filter': [memberFilter('value eq "x"', []).cond] },
);

const REMOVE_BY_IDS = REMOVE(BY_IDS);

/** A PATCH's one member added or removed (what Okta and Entra send), run as one statement (decision 0991). */
export interface OneMemberChange {
  kind: 'add' | 'remove';
  userId: string;
}

/** A filter as SQL, with the parameters it binds after the workspace id ($1). */
function compile(workspaceId: string, filter: FilterNode | undefined): CompiledFilter {
  const params: unknown[] = [workspaceId];
  return { where: filter ? `g.workspace_id = $1 AND ${filterToSql(filter, GROUP_ATTRS, params)}` : 'g.workspace_id = $1', params };
}

/** A `members[…]` value filter as SQL over gm, its parameters after the workspace and group ($1, $2). */
function memberFilter(filter: FilterNode | string, params: unknown[]): { cond: string; params: unknown[] } {
  const all: unknown[] = ['', '', ...params];
  const node = typeof filter === 'string' ? parseFilter(filter) : filter;
  const cond = valueFilterToSql({ attr: 'members' }, node, GROUP_ATTRS, all);
  return { cond, params: all.slice(2) };
}

/**
 * scim_groups and scim_group_members. Reads by id through TypeORM; SQL text for the filter
 * compiled to SQL, ON CONFLICT, the set-based membership changes and the writes that answer
 * their row (RETURNING). Every method takes the workspace id first (after the transaction).
 */
@Injectable()
export class ScimGroupsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The group with its meta.lastModified, unlocked; on the transaction when given one. */
  async find(workspaceId: string, id: string, tx?: Tx): Promise<GroupRow | undefined> {
    return first(tx ?? this.dataSource, FIND, [workspaceId, id]);
  }

  /** Whether the workspace has the group (a primary-key probe: no members, no meta.lastModified); on the pool without a transaction. */
  async exists(tx: Tx | null, workspaceId: string, id: string): Promise<boolean> {
    return (await first(tx ?? this.dataSource, EXISTS, [workspaceId, id])) !== undefined;
  }

  /**
   * Sets the displayName and/or the externalId (undefined keeps it, a null externalId clears it)
   * when they differ, and answers what they were; undefined when the group is gone or already has
   * them (then nothing is locked). The row stays locked until commit, so renames of one group
   * follow each other and each sees the name the previous one left; membership changes do not
   * wait for it (their foreign key takes a KEY SHARE lock, which a non-key UPDATE does not conflict
   * with). Throws PostgreSQL's unique_violation when another group of the workspace has the name.
   */
  async rename(
    tx: Tx,
    workspaceId: string,
    id: string,
    change: { displayName?: string; externalId?: string | null },
  ): Promise<Renamed | undefined> {
    const setName = change.displayName !== undefined;
    const setExternalId = change.externalId !== undefined;
    if (!setName && !setExternalId) return undefined;
    return first(tx, RENAME, [workspaceId, id, setName, change.displayName ?? null, setExternalId, change.externalId ?? null]);
  }

  /**
   * Records that the group's membership changed now (its meta.lastModified): the row of this
   * database backend, which no other transaction in flight can hold, so it never waits.
   */
  async recordMembershipChange(tx: Tx, groupIds: string[]): Promise<void> {
    if (groupIds.length === 0) return;
    await run(tx, RECORD_CHANGE, [groupIds]);
  }

  /** The workspace's groups through the client's filter: pages by offset or after a position (RFC 9865), with the filter's total. */
  pages(workspaceId: string, filter: FilterNode | undefined): PageSource<GroupRow> {
    return collectionPages(this.dataSource, GROUP_PAGES, workspaceId, filter);
  }

  /** Members of the given groups, in the order they joined; on the transaction when given one. */
  async members(workspaceId: string, groupIds: string[], tx: Tx = this.dataSource.manager): Promise<MemberRow[]> {
    if (groupIds.length === 0) return [];
    return run(tx, MEMBERS, [workspaceId, groupIds]);
  }

  /** undefined when the displayName is taken (case-insensitively) in the workspace. */
  async insert(tx: Tx, workspaceId: string, displayName: string, externalId: string | null = null): Promise<GroupRow | undefined> {
    return first(tx, INSERT, [workspaceId, displayName, externalId]);
  }

  async delete(tx: Tx, workspaceId: string, id: string): Promise<GroupRow | undefined> {
    return first(tx, DELETE, [workspaceId, id]);
  }

  /**
   * One membership step as set-based SQL. Only SCIM users of the same workspace can
   * become members; other ids are silently skipped (spec). Returns the users added and removed.
   */
  async applyStep(tx: Tx, workspaceId: string, groupId: string, step: MemberStep): Promise<StepResult> {
    switch (step.kind) {
      case 'add':
        return { added: await this.add(tx, workspaceId, groupId, step.userIds), removed: [] };
      case 'remove':
        return { added: [], removed: await this.remove(tx, workspaceId, groupId, BY_IDS, [step.userIds]) };
      case 'removeAll':
        return { added: [], removed: await this.remove(tx, workspaceId, groupId, 'TRUE', []) };
      case 'removeWhere': {
        const { cond, params } = memberFilter(step.filter, []);
        return { added: [], removed: await this.remove(tx, workspaceId, groupId, cond, params) };
      }
      case 'replace': {
        const removed = await this.remove(tx, workspaceId, groupId, ALL_BUT_IDS, [step.userIds]);
        return { added: await this.add(tx, workspaceId, groupId, step.userIds), removed };
      }
    }
  }

  /**
   * Adds or removes one member in one statement carrying the unit of work's riders (its audit row and directory
   * event, decision 0991), which run once when the member was added or removed and not at all otherwise; on the
   * pool, or plainly on a transaction (`on`). True when the membership changed. Throws PostgreSQL's
   * foreign_key_violation when the group was deleted meanwhile, as applyStep does.
   */
  async changeOneMember(
    on: Tx | null,
    workspaceId: string,
    groupId: string,
    change: OneMemberChange,
    riders: readonly StatementRider[],
  ): Promise<boolean> {
    const s = change.kind === 'add' ? ADD : REMOVE_BY_IDS;
    const { sql, params } = withRiderColumns(s.text, [workspaceId, groupId, [change.userId]], riders);
    const rows = await runRaw(on ?? this.dataSource, rewritten(s, sql), params);
    settleRiders(rows, riders);
    return rows.length > 0;
  }

  /** Removes every group membership of the user (DELETE /Users/{id}); returns the groups it left. */
  async removeUserFromAll(tx: Tx, workspaceId: string, userId: string): Promise<string[]> {
    const groupIds = (await run(tx, REMOVE_USER_FROM_ALL, [workspaceId, userId])).map((r) => r.groupId);
    await this.recordMembershipChange(tx, groupIds);
    return groupIds;
  }

  /**
   * Adds the workspace's SCIM users among `userIds` to the group, if it is the workspace's, and
   * records the change (scim_group_changes) in the same statement when any was added.
   */
  private async add(tx: Tx, workspaceId: string, groupId: string, userIds: string[]): Promise<MemberChange[]> {
    if (userIds.length === 0) return [];
    return run(tx, ADD, [workspaceId, groupId, userIds]);
  }

  /** Records the change when any was removed. */
  private async remove(tx: Tx, workspaceId: string, groupId: string, cond: string, extra: unknown[]): Promise<MemberChange[]> {
    // A client's value filter makes a text of its own: unnamed.
    const prepare = cond === BY_IDS || cond === ALL_BUT_IDS || cond === 'TRUE';
    return run(tx, REMOVE(cond), [workspaceId, groupId, ...extra], { prepare });
  }
}
