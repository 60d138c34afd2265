import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEntry, auditRowSelect } from '../../audit/audit.service';
import { preparedQuery } from '../../database/prepared-query';
import { FilterNode } from '../filter/ast';
import { USER_ATTRS } from '../filter/attributes';
import { filterToSql } from '../filter/to-sql';
import { UserState } from '../patch/apply-user';
import { USER_COLUMNS, UserRow } from './user.mapper';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;
/**
 * SCIM users: the workspace's end_users without an OAuth client. Written as the
 * expression of end_users_identity_key so userName lookups are one index probe.
 */
export const USER_SCOPE = `u.workspace_id = $1 AND COALESCE(u.oauth_client_id, ${NIL}) = ${NIL}`;

/** Built once: the hot read by id looks its prepared name up by this text on every call. */
const FIND_BY_ID = `SELECT ${USER_COLUMNS} FROM end_users u WHERE ${USER_SCOPE} AND u.id = $2`;

/** end_users as SCIM sees them. Every method takes the workspace id first. */
@Injectable()
export class ScimUsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inside a transaction (locked for the write that follows) when given its manager; else a prepared read. */
  async find(workspaceId: string, id: string, tx?: EntityManager): Promise<UserRow | undefined> {
    const rows = tx
      ? ((await tx.query(`${FIND_BY_ID} FOR UPDATE`, [workspaceId, id])) as UserRow[])
      : await preparedQuery<UserRow>(this.dataSource, FIND_BY_ID, [workspaceId, id]);
    return rows[0];
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
    const run = <T extends object>(sql: string, values: unknown[]) =>
      isSingleCondition(filter) ? preparedQuery<T>(this.dataSource, sql, values) : (this.dataSource.query(sql, values) as Promise<T[]>);
    const count = async () =>
      (await run<{ total: number }>(`SELECT count(*)::int AS total FROM end_users u WHERE ${where}`, params))[0].total;
    if (limit === 0) return { total: await count(), rows: [] };
    const n = params.length;
    const rows = await run<UserRow>(
      `SELECT ${USER_COLUMNS} FROM end_users u WHERE ${where} ORDER BY u.created_at, u.id LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, limit, offset],
    );
    // A short page that starts at or after the first row tells the total without counting (the usual filter lookup).
    const total = rows.length > 0 && rows.length < limit ? offset + rows.length : offset === 0 && rows.length === 0 ? 0 : await count();
    return { total, rows };
  }

  /**
   * Inserts the user and its audit row in one statement (one round trip, one implicit
   * transaction); undefined, and no audit row, when (workspace, no client, lower(email))
   * is taken.
   */
  async insertAudited(workspaceId: string, id: string, user: UserState, audit: AuditEntry): Promise<UserRow | undefined> {
    const row = auditRowSelect(audit, 7);
    const rows = await preparedQuery<UserRow>(
      this.dataSource,
      `WITH u AS (
         INSERT INTO end_users AS u (id, workspace_id, oauth_client_id, email, first_name, last_name, is_active, email_verified)
         VALUES ($1, $2, NULL, $3, $4, $5, $6, true)
         ON CONFLICT DO NOTHING
         RETURNING ${USER_COLUMNS}),
       a AS (INSERT INTO audit_events ${row.columns} SELECT ${row.select} FROM u)
       SELECT * FROM u`,
      [id, workspaceId, user.email, user.firstName ?? '', user.lastName ?? '', user.isActive, ...row.params],
    );
    return rows[0];
  }

  async update(manager: EntityManager, workspaceId: string, id: string, user: UserState): Promise<UserRow> {
    const [rows] = (await manager.query(
      `UPDATE end_users u SET email = $3, first_name = $4, last_name = $5, is_active = $6, updated_at = now()
        WHERE ${USER_SCOPE} AND u.id = $2 RETURNING ${USER_COLUMNS}`,
      [workspaceId, id, user.email, user.firstName ?? '', user.lastName ?? '', user.isActive],
    )) as [UserRow[], number];
    return rows[0];
  }

  /** Removes every group membership of the user; returns the groups it left. */
  async removeMemberships(manager: EntityManager, workspaceId: string, userId: string): Promise<string[]> {
    const [rows] = (await manager.query(`DELETE FROM scim_group_members WHERE workspace_id = $1 AND user_id = $2 RETURNING group_id`, [
      workspaceId,
      userId,
    ])) as [{ group_id: string }[], number];
    const groupIds = rows.map((r) => r.group_id);
    if (groupIds.length) {
      await manager.query(`UPDATE scim_groups SET updated_at = now() WHERE workspace_id = $1 AND id = ANY($2::uuid[])`, [
        workspaceId,
        groupIds,
      ]);
    }
    return groupIds;
  }
}

/** No filter, or one comparison or presence test: a bounded set of SQL texts. */
function isSingleCondition(filter: FilterNode | undefined): boolean {
  return !filter || filter.type === 'compare' || filter.type === 'present';
}

export function toState(row: UserRow): UserState {
  return { email: row.email, firstName: row.first_name || null, lastName: row.last_name || null, isActive: row.is_active };
}
