import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { computed, entityColumns } from '../database/row-shape';
import { first, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { WorkspaceMember, WorkspaceRole } from './entities/workspace-member.entity';
import { Workspace } from './entities/workspace.entity';

/** A workspace with the counts shown beside it. */
export type WorkspaceRow = Pick<Workspace, 'id' | 'name' | 'description' | 'createdAt'> & { memberCount: number; databaseCount: number };

/** A field left undefined keeps its value (the DTOs refuse null: decision 0041). */
export interface WorkspaceChange {
  name?: string | null;
  description?: string | null;
}

/**
 * Counts shown with each workspace: its members, and its managed databases that are not
 * being deleted. SQL text: two correlated counts, one of them over another module's table.
 */
const WITH_COUNTS = `SELECT w.id, w.name, w.description, w.created_at,
  (SELECT count(*) FROM workspace_members m2 WHERE m2.workspace_id = w.id)::int AS member_count,
  (SELECT count(*) FROM managed_databases d WHERE d.workspace_id = w.id AND d.status <> 'deleting')::int AS database_count
  FROM workspaces w`;

const WORKSPACE = entityColumns(Workspace, ['id', 'name', 'description', 'createdAt']).and(
  computed({ memberCount: ['member_count', 'number'], databaseCount: ['database_count', 'number'] }),
);

const LIST_FOR_DEVELOPER = statement(
  'workspaces.list-for-developer',
  `${WITH_COUNTS}
  JOIN workspace_members m ON m.workspace_id = w.id AND m.developer_id = $1
  ORDER BY w.created_at, w.id`,
  WORKSPACE,
);

const ONE = statement('workspaces.one', `${WITH_COUNTS} WHERE w.id = $1`, WORKSPACE);

// Every developer route of every module asks this first: a prepared statement on the primary key.
const ROLE = statement(
  'workspaces.role',
  `SELECT role FROM workspace_members WHERE workspace_id = $1 AND developer_id = $2`,
  entityColumns(WorkspaceMember, ['role'], { values: { role: ['owner', 'member'] } }),
);

/** workspaces (the tenants themselves; the workspace id is their key) and the membership check. */
@Injectable()
export class WorkspacesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The developer's role in the workspace, on `tx` or on the pool (null); null when not a member. */
  async role(tx: Tx | null, workspaceId: string, developerId: string): Promise<WorkspaceRole | null> {
    return (await first(tx ?? this.dataSource, ROLE, [workspaceId, developerId]))?.role ?? null;
  }

  /** The workspace with its counts, on `tx` or on the pool (null). */
  async findWithCounts(tx: Tx | null, workspaceId: string): Promise<WorkspaceRow | undefined> {
    return first(tx ?? this.dataSource, ONE, [workspaceId]);
  }

  /** The workspaces the developer is a member of, oldest first. */
  async listForDeveloper(developerId: string): Promise<WorkspaceRow[]> {
    return run(this.dataSource, LIST_FOR_DEVELOPER, [developerId]);
  }

  async insert(tx: Tx, values: { name: string; description: string }): Promise<string> {
    const workspaces = tx.getRepository(Workspace);
    return (await workspaces.save(workspaces.create(values))).id;
  }

  async update(tx: Tx, workspaceId: string, change: WorkspaceChange): Promise<void> {
    await tx.getRepository(Workspace).update(
      { id: workspaceId },
      {
        ...(change.name != null && { name: change.name }),
        ...(change.description != null && { description: change.description }),
        updatedAt: () => 'now()',
      },
    );
  }

  /** Deletes the workspace: every tenant table cascades, and a trigger first queues its databases' deprovisioning. */
  async delete(tx: Tx, workspaceId: string): Promise<void> {
    await tx.getRepository(Workspace).delete({ id: workspaceId });
  }
}
