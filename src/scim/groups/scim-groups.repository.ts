import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FilterNode } from '../filter/ast';
import { GROUP_ATTRS } from '../filter/attributes';
import { filterToSql, valueFilterToSql } from '../filter/to-sql';
import { MemberStep } from '../patch/apply-group';
import { GroupRow, MemberRow } from './group.mapper';

const COLUMNS = 'g.id, g.display_name, g.created_at, g.updated_at';
const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** scim_groups and scim_group_members. Every method takes the workspace id first. */
@Injectable()
export class ScimGroupsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(workspaceId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<GroupRow | undefined> {
    const rows = (await manager.query(`SELECT ${COLUMNS} FROM scim_groups g WHERE g.workspace_id = $1 AND g.id = $2`, [
      workspaceId,
      id,
    ])) as GroupRow[];
    return rows[0];
  }

  async list(
    workspaceId: string,
    filter: FilterNode | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: GroupRow[] }> {
    const params: unknown[] = [workspaceId];
    const where = filter ? `g.workspace_id = $1 AND ${filterToSql(filter, GROUP_ATTRS, params)}` : 'g.workspace_id = $1';
    const count = async () =>
      ((await this.dataSource.query(`SELECT count(*)::int AS total FROM scim_groups g WHERE ${where}`, params)) as { total: number }[])[0]
        .total;
    if (limit === 0) return { total: await count(), rows: [] };
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM scim_groups g WHERE ${where} ORDER BY g.created_at, g.id LIMIT ${limit} OFFSET ${offset}`,
      params,
    )) as GroupRow[];
    // A short page that starts at or after the first row tells the total without counting (the usual filter lookup).
    const total = rows.length > 0 && rows.length < limit ? offset + rows.length : offset === 0 && rows.length === 0 ? 0 : await count();
    return { total, rows };
  }

  /** Members of the given groups, in the order they joined. */
  async members(workspaceId: string, groupIds: string[], manager: EntityManager = this.dataSource.manager): Promise<MemberRow[]> {
    if (groupIds.length === 0) return [];
    return (await manager.query(
      `SELECT gm.group_id, gm.user_id, u.email, u.first_name, u.last_name
         FROM scim_group_members gm JOIN end_users u ON u.id = gm.user_id
        WHERE gm.workspace_id = $1 AND gm.group_id = ANY($2::uuid[])
        ORDER BY gm.seq`,
      [workspaceId, groupIds],
    )) as MemberRow[];
  }

  /** undefined when the displayName is taken (case-insensitively) in the workspace. */
  async insert(manager: EntityManager, workspaceId: string, displayName: string): Promise<GroupRow | undefined> {
    const rows = (await manager.query(
      `INSERT INTO scim_groups AS g (workspace_id, display_name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [workspaceId, displayName],
    )) as GroupRow[];
    return rows[0];
  }

  /** Locks the group row for the rest of the transaction, so PATCHes on one group run one after another. */
  async touch(manager: EntityManager, workspaceId: string, id: string, displayName?: string): Promise<GroupRow | undefined> {
    const [rows] = (await manager.query(
      `UPDATE scim_groups g SET updated_at = now(), display_name = COALESCE($3, g.display_name)
        WHERE g.workspace_id = $1 AND g.id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id, displayName ?? null],
    )) as [GroupRow[], number];
    return rows[0];
  }

  async delete(manager: EntityManager, workspaceId: string, id: string): Promise<GroupRow | undefined> {
    const [rows] = (await manager.query(`DELETE FROM scim_groups g WHERE g.workspace_id = $1 AND g.id = $2 RETURNING ${COLUMNS}`, [
      workspaceId,
      id,
    ])) as [GroupRow[], number];
    return rows[0];
  }

  /**
   * One membership step as set-based SQL. Only SCIM users of the same workspace can
   * become members; other ids are silently skipped (spec). Returns rows added/removed.
   */
  async applyStep(
    manager: EntityManager,
    workspaceId: string,
    groupId: string,
    step: MemberStep,
  ): Promise<{ added: number; removed: number }> {
    switch (step.kind) {
      case 'add':
        return { added: await this.add(manager, workspaceId, groupId, step.userIds), removed: 0 };
      case 'remove':
        return { added: 0, removed: await this.remove(manager, workspaceId, groupId, '(gm.user_id = ANY($3::uuid[]))', [step.userIds]) };
      case 'removeAll':
        return { added: 0, removed: await this.remove(manager, workspaceId, groupId, 'TRUE', []) };
      case 'removeWhere': {
        const params: unknown[] = [workspaceId, groupId];
        const cond = valueFilterToSql({ attr: 'members' }, step.filter, GROUP_ATTRS, params);
        return { added: 0, removed: await this.remove(manager, workspaceId, groupId, cond, params.slice(2)) };
      }
      case 'replace': {
        const removed = await this.remove(manager, workspaceId, groupId, 'NOT (gm.user_id = ANY($3::uuid[]))', [step.userIds]);
        return { added: await this.add(manager, workspaceId, groupId, step.userIds), removed };
      }
    }
  }

  private async add(manager: EntityManager, workspaceId: string, groupId: string, userIds: string[]): Promise<number> {
    if (userIds.length === 0) return 0;
    const rows = (await manager.query(
      // In request order (seq is assigned per row as inserted), so members list in the order they were sent.
      `INSERT INTO scim_group_members (group_id, user_id, workspace_id)
       SELECT $2, u.id, $1 FROM unnest($3::uuid[]) WITH ORDINALITY AS m(id, n) JOIN end_users u ON u.id = m.id
        WHERE u.workspace_id = $1 AND COALESCE(u.oauth_client_id, ${NIL}) = ${NIL}
        ORDER BY m.n
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [workspaceId, groupId, userIds],
    )) as unknown[];
    return rows.length;
  }

  private async remove(manager: EntityManager, workspaceId: string, groupId: string, cond: string, extra: unknown[]): Promise<number> {
    const [, count] = (await manager.query(
      `DELETE FROM scim_group_members gm WHERE gm.workspace_id = $1 AND gm.group_id = $2 AND ${cond}`,
      [workspaceId, groupId, ...extra],
    )) as [unknown, number];
    return count;
  }
}
