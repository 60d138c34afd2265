import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import { bool, date, num, QueryRow, text } from '../../database/rows';
import { settleRiders, withRiders } from '../../database/statement-riders';
import type { Tx } from '../../database/unit-of-work';
import type { StatementRider } from '../../events/domain-events';
import { FilterNode } from '../filter/ast';
import { USER_ATTRS } from '../filter/attributes';
import { filterToSql } from '../filter/to-sql';
import { UserState } from '../patch/apply-user';
import type { PagePosition } from '../protocol/cursor';

/** An end_users row as the SCIM module reads it. */
export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

export const USER_COLUMNS = 'u.id, u.email, u.first_name, u.last_name, u.is_active, u.created_at, u.updated_at';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;
/**
 * SCIM users: the workspace's end_users without an OAuth client. Written as the
 * expression of end_users_identity_key so userName lookups are one index probe.
 */
export const USER_SCOPE = `u.workspace_id = $1 AND COALESCE(u.oauth_client_id, ${NIL}) = ${NIL}`;

/** Built once: the hot read by id looks its prepared name up by this text on every call. */
const FIND_BY_ID = `SELECT ${USER_COLUMNS} FROM end_users u WHERE ${USER_SCOPE} AND u.id = $2`;
const LOCK_BY_ID = `${FIND_BY_ID} FOR UPDATE`;
/** The user holding a userName (stored email), case-insensitively: one probe of end_users_identity_key. */
const LOCK_BY_EMAIL = `SELECT ${USER_COLUMNS} FROM end_users u WHERE ${USER_SCOPE} AND lower(u.email) = lower($2) FOR UPDATE`;
/** ON CONFLICT DO NOTHING: no row back when (workspace, no client, lower(email)) is taken. */
const INSERT = `INSERT INTO end_users AS u (id, workspace_id, oauth_client_id, email, first_name, last_name, is_active, email_verified)
         VALUES ($1, $2, NULL, $3, $4, $5, $6, true)
         ON CONFLICT DO NOTHING
         RETURNING ${USER_COLUMNS}`;
const UPDATE = `UPDATE end_users u SET email = $3, first_name = $4, last_name = $5, is_active = $6, updated_at = now()
        WHERE ${USER_SCOPE} AND u.id = $2 RETURNING ${USER_COLUMNS}`;

/**
 * end_users as SCIM sees them (the table's entity belongs to end-users): SQL text, as prepared
 * statements on the hot reads and in the unit of work. Every method takes the workspace id first.
 */
@Injectable()
export class ScimUsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The hot read by id: a prepared statement. */
  async find(workspaceId: string, id: string): Promise<UserRow | undefined> {
    return (await preparedQuery(this.dataSource, FIND_BY_ID, [workspaceId, id])).map(toUserRow)[0];
  }

  /** The user, row-locked for the write that follows in the same transaction. */
  async lock(tx: Tx, workspaceId: string, id: string): Promise<UserRow | undefined> {
    return (await preparedQuery(tx, LOCK_BY_ID, [workspaceId, id])).map(toUserRow)[0];
  }

  /** The user whose userName (stored email) this is, row-locked: a POST for a deactivated user's name reactivates it. */
  async lockByEmail(tx: Tx, workspaceId: string, email: string): Promise<UserRow | undefined> {
    return (await preparedQuery(tx, LOCK_BY_EMAIL, [workspaceId, email])).map(toUserRow)[0];
  }

  /** One page in creation order (then id, for a stable order), plus the total the filter matches. */
  async list(
    workspaceId: string,
    filter: FilterNode | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: UserRow[] }> {
    const params: unknown[] = [workspaceId];
    const where = filter ? `${USER_SCOPE} AND ${filterToSql(filter, USER_ATTRS, params)}` : USER_SCOPE;
    // What IdPs send (no filter, or one comparison such as userName eq) has a few fixed SQL texts: prepare those.
    const run = (sql: string, values: unknown[]) =>
      isSingleCondition(filter) ? preparedQuery(this.dataSource, sql, values) : this.dataSource.query<QueryRow[]>(sql, values);
    // Unfiltered: the workspace's counter rows (scim_user_counts, kept by triggers), exact and a few rows to read.
    const countSql = filter
      ? `SELECT count(*)::int AS total FROM end_users u WHERE ${where}`
      : `SELECT COALESCE(sum(c.users), 0)::int AS total FROM scim_user_counts c WHERE c.workspace_id = $1`;
    const count = async () => num((await run(countSql, params))[0], 'total');
    if (limit === 0) return { total: await count(), rows: [] };
    const n = params.length;
    // The skip reads only index entries: without a filter, an index-only scan of end_users_scim_page_idx
    // (the workspace's SCIM users in page order); the page's rows are then fetched by id.
    const rows = (
      await run(
        `SELECT ${USER_COLUMNS} FROM end_users u
           JOIN (SELECT u.id FROM end_users u WHERE ${where} ORDER BY u.created_at, u.id LIMIT $${n + 1} OFFSET $${n + 2}) page ON page.id = u.id
          ORDER BY u.created_at, u.id`,
        [...params, limit, offset],
      )
    ).map(toUserRow);
    // A short page that starts at or after the first row tells the total without counting (the usual filter lookup).
    const total = rows.length > 0 && rows.length < limit ? offset + rows.length : offset === 0 && rows.length === 0 ? 0 : await count();
    return { total, rows };
  }

  /**
   * Cursor paging (RFC 9865): up to `limit` users after `after` in (created_at, id) order, each with its
   * exact page key (created_at in microseconds, as text), plus the filter's total.
   */
  async listAfter(
    workspaceId: string,
    filter: FilterNode | undefined,
    after: PagePosition | null,
    limit: number,
  ): Promise<{ total: number; rows: (UserRow & { pageKey: string })[] }> {
    const params: unknown[] = [workspaceId];
    const where = filter ? `${USER_SCOPE} AND ${filterToSql(filter, USER_ATTRS, params)}` : USER_SCOPE;
    const countSql = filter
      ? `SELECT count(*)::int AS total FROM end_users u WHERE ${where}`
      : `SELECT COALESCE(sum(c.users), 0)::int AS total FROM scim_user_counts c WHERE c.workspace_id = $1`;
    const total = num((await this.dataSource.query<QueryRow[]>(countSql, params))[0], 'total');
    if (limit === 0) return { total, rows: [] };
    const n = params.length;
    const keyset = after ? ` AND (u.created_at, u.id) > (${FROM_MICROS(`$${n + 2}`)}, $${n + 3}::uuid)` : '';
    const values = after ? [...params, limit, after.createdUs, after.id] : [...params, limit];
    const rows = await this.dataSource.query<QueryRow[]>(
      `SELECT ${USER_COLUMNS}, ${MICROS('u.created_at')} AS page_key FROM end_users u
        WHERE ${where}${keyset} ORDER BY u.created_at, u.id LIMIT $${n + 1}`,
      values,
    );
    return { total, rows: rows.map((r) => ({ ...toUserRow(r), pageKey: text(r, 'page_key') })) };
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
    const { sql, params } = withRiders(INSERT, values, riders);
    const rows = await preparedQuery(on ?? this.dataSource, sql, params);
    settleRiders(rows, riders);
    return rows.map(toUserRow)[0];
  }

  /** Throws PostgreSQL's unique_violation when the email is taken by another user of the workspace. */
  async update(tx: Tx, workspaceId: string, id: string, user: UserState): Promise<UserRow> {
    const rows = await preparedQuery(tx, UPDATE, [workspaceId, id, user.email, user.firstName ?? '', user.lastName ?? '', user.isActive]);
    return toUserRow(rows[0]);
  }
}

/** A timestamptz as exact microseconds since the epoch (text), and back: node-postgres would round it to milliseconds. */
export const MICROS = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
export const FROM_MICROS = (param: string) => `('epoch'::timestamptz + ${param}::bigint * interval '1 microsecond')`;

/** No filter, or one comparison or presence test: a bounded set of SQL texts. */
function isSingleCondition(filter: FilterNode | undefined): boolean {
  return !filter || filter.type === 'compare' || filter.type === 'present';
}

function toUserRow(row: QueryRow): UserRow {
  return {
    id: text(row, 'id'),
    email: text(row, 'email'),
    first_name: text(row, 'first_name'),
    last_name: text(row, 'last_name'),
    is_active: bool(row, 'is_active'),
    created_at: date(row, 'created_at'),
    updated_at: date(row, 'updated_at'),
  };
}
