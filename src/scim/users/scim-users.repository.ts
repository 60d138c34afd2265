import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { computed, entityColumns } from '../../database/row-shape';
import { first, statement, statementFamily } from '../../database/statement';
import { runWithRiders } from '../../database/statement-riders';
import type { Tx } from '../../database/unit-of-work';
import type { StatementRider } from '../../events/domain-events';
import { EndUser } from '../../end-user-directory/entities/end-user.entity';
import { FilterNode } from '../filter/ast';
import { USER_ATTRS } from '../filter/attributes';
import { parseFilter } from '../filter/parser';
import { filterToSql } from '../filter/to-sql';
import { UserState } from '../patch/apply-user';
import { type CollectionStatements, collectionPages, type CompiledFilter, pageStatements } from '../protocol/collection-pages';
import type { PageSource } from '../protocol/paging';

/** The end_users columns a SCIM user is made of. */
const USER = entityColumns(EndUser, ['id', 'email', 'firstName', 'lastName', 'isActive', 'createdAt', 'updatedAt']);

/** An end_users row as the SCIM module reads it. */
export type UserRow = Pick<EndUser, 'id' | 'email' | 'firstName' | 'lastName' | 'isActive' | 'createdAt' | 'updatedAt'>;

export const USER_COLUMNS = 'u.id, u.email, u.first_name, u.last_name, u.is_active, u.created_at, u.updated_at';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;
/**
 * SCIM users: the workspace's end_users without an OAuth client. Written as the
 * expression of end_users_identity_key so userName lookups are one index probe.
 */
export const USER_SCOPE = `u.workspace_id = $1 AND COALESCE(u.oauth_client_id, ${NIL}) = ${NIL}`;

const FIND_BY_ID_TEXT = `SELECT ${USER_COLUMNS} FROM end_users u WHERE ${USER_SCOPE} AND u.id = $2`;
const FIND_BY_ID = statement('scim-users.find-by-id', FIND_BY_ID_TEXT, USER);
const LOCK_BY_ID = statement('scim-users.lock-by-id', `${FIND_BY_ID_TEXT} FOR UPDATE`, USER);
/** The user holding a userName (stored email), case-insensitively: one probe of end_users_identity_key. */
const LOCK_BY_EMAIL = statement(
  'scim-users.lock-by-email',
  `SELECT ${USER_COLUMNS} FROM end_users u WHERE ${USER_SCOPE} AND lower(u.email) = lower($2) FOR UPDATE`,
  USER,
);
/** ON CONFLICT DO NOTHING: no row back when (workspace, no client, lower(email)) is taken. */
const INSERT = statement(
  'scim-users.insert',
  `INSERT INTO end_users AS u (id, workspace_id, oauth_client_id, email, first_name, last_name, is_active, email_verified)
         VALUES ($1, $2, NULL, $3, $4, $5, $6, true)
         ON CONFLICT DO NOTHING
         RETURNING ${USER_COLUMNS}`,
  USER,
);
const UPDATE = statement(
  'scim-users.update',
  `UPDATE end_users u SET email = $3, first_name = $4, last_name = $5, is_active = $6, updated_at = now()
        WHERE ${USER_SCOPE} AND u.id = $2 RETURNING ${USER_COLUMNS}`,
  USER,
);

function compile(workspaceId: string, filter: FilterNode | undefined): CompiledFilter {
  const params: unknown[] = [workspaceId];
  return { where: filter ? `${USER_SCOPE} AND ${filterToSql(filter, USER_ATTRS, params)}` : USER_SCOPE, params };
}

/** The catalog's filter sample: `userName eq "…"`, the lookup identity providers send, as the filter compiler writes it. */
const USERNAME_EQ = compile('', parseFilter('userName eq "someone@example.com"')).where;
const TOTAL = computed({ total: 'number' });
/** Unfiltered: the workspace's counter rows (scim_user_counts, kept by triggers), exact and a few rows to read. */
const COUNT = statementFamily(
  'scim-users.count',
  TOTAL,
  (where: string | null) =>
    where === null
      ? `SELECT COALESCE(sum(c.users), 0)::int AS total FROM scim_user_counts c WHERE c.workspace_id = $1`
      : `SELECT count(*)::int AS total FROM end_users u WHERE ${where}`,
  { all: [null], filtered: [USERNAME_EQ] },
);
/**
 * Without a filter, the count reads the counter rows and the offset page's skip is an index-only scan of
 * end_users_scim_page_idx (the workspace's SCIM users in page order); what IdPs send (no filter, or one
 * comparison such as userName eq) has a few fixed SQL texts: prepared.
 */
const USER_PAGES: CollectionStatements<UserRow> = {
  compile,
  count: (where, filtered) => COUNT(filtered ? where : null),
  ...pageStatements(
    'scim-users',
    USER,
    { table: 'end_users', alias: 'u', columns: USER_COLUMNS },
    { all: USER_SCOPE, filtered: USERNAME_EQ },
  ),
  preparesOffsetPage: isSingleCondition,
};

/**
 * end_users as SCIM sees them (the table's entity belongs to end-users): SQL text, as prepared
 * statements on the hot reads and in the unit of work. Every method takes the workspace id first.
 */
@Injectable()
export class ScimUsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The hot read by id: a prepared statement. */
  async find(workspaceId: string, id: string): Promise<UserRow | undefined> {
    return first(this.dataSource, FIND_BY_ID, [workspaceId, id]);
  }

  /** The user, row-locked for the write that follows in the same transaction. */
  async lock(tx: Tx, workspaceId: string, id: string): Promise<UserRow | undefined> {
    return first(tx, LOCK_BY_ID, [workspaceId, id]);
  }

  /** The user whose userName (stored email) this is, row-locked: a POST for a deactivated user's name reactivates it. */
  async lockByEmail(tx: Tx, workspaceId: string, email: string): Promise<UserRow | undefined> {
    return first(tx, LOCK_BY_EMAIL, [workspaceId, email]);
  }

  /**
   * The workspace's users through the client's filter, in creation order (then id, for a stable order):
   * pages by offset or after a position (RFC 9865, each row with its exact page key), with the filter's total.
   */
  pages(workspaceId: string, filter: FilterNode | undefined): PageSource<UserRow> {
    return collectionPages(this.dataSource, USER_PAGES, workspaceId, filter);
  }

  /**
   * undefined when (workspace, no client, lower(email)) is taken. One statement carrying the unit
   * of work's riders (its audit row), on the pool, or plainly on a transaction (`on`).
   */
  async insert(
    on: Tx | null,
    workspaceId: string,
    id: string,
    user: UserState,
    riders: readonly StatementRider[],
  ): Promise<UserRow | undefined> {
    const values = [id, workspaceId, user.email, user.firstName ?? '', user.lastName ?? '', user.isActive];
    return (await runWithRiders(on ?? this.dataSource, INSERT, values, riders))[0];
  }

  /**
   * The user as written; undefined when the workspace has no such user. Throws PostgreSQL's
   * unique_violation when the email is taken by another user of the workspace.
   */
  async update(tx: Tx, workspaceId: string, id: string, user: UserState): Promise<UserRow | undefined> {
    return first(tx, UPDATE, [workspaceId, id, user.email, user.firstName ?? '', user.lastName ?? '', user.isActive]);
  }
}

/** No filter, or one comparison or presence test: a bounded set of SQL texts. */
function isSingleCondition(filter: FilterNode | undefined): boolean {
  return !filter || filter.type === 'compare' || filter.type === 'present';
}
