import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { CredentialCache, notifyAllCredentialsRevoked } from '../common/auth/credential-cache';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { DomainError, notFound } from '../common/errors';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { AddMemberDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './dto/workspace.dto';

export type WorkspaceRole = 'owner' | 'member';

export interface WorkspaceView {
  id: string;
  name: string;
  description: string;
  database_count: number;
  member_count: number;
  created_at: string;
}

/**
 * Counts shown with each workspace. database_count reads the managed-database
 * table once that module exists; a workspace's deleted databases do not count.
 */
const WORKSPACE_COLUMNS = `
  w.id, w.name, w.description, w.created_at,
  (SELECT count(*) FROM workspace_members m2 WHERE m2.workspace_id = w.id)::int AS member_count,
  (SELECT count(*) FROM managed_databases d WHERE d.workspace_id = w.id AND d.status <> 'deleting')::int AS database_count`;

interface WorkspaceRow {
  id: string;
  name: string;
  description: string;
  created_at: Date;
  member_count: number;
  database_count: number;
}

const toView = (r: WorkspaceRow): WorkspaceView => ({
  id: r.id,
  name: r.name,
  description: r.description,
  database_count: Number(r.database_count),
  member_count: Number(r.member_count),
  created_at: new Date(r.created_at).toISOString(),
});

const actorOf = (p: DeveloperPrincipal) => ({ type: 'developer' as const, id: p.developerId, email: p.email });

/** Workspaces and membership; the "is member" check every developer route relies on. */
@Injectable()
export class WorkspacesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly credentials: CredentialCache,
  ) {}

  /** Role of the developer in the workspace; not_found when they are not a member (or the id is not a UUID). */
  async assertMember(developerId: string, workspaceId: string, manager: EntityManager = this.dataSource.manager): Promise<WorkspaceRole> {
    if (!isUuid(workspaceId)) throw notFound('workspace');
    const rows = (await manager.query(`SELECT role FROM workspace_members WHERE workspace_id = $1 AND developer_id = $2`, [
      workspaceId,
      developerId,
    ])) as { role: WorkspaceRole }[];
    if (!rows[0]) throw notFound('workspace');
    return rows[0].role;
  }

  async assertOwner(developerId: string, workspaceId: string, manager?: EntityManager): Promise<void> {
    const role = await this.assertMember(developerId, workspaceId, manager);
    if (role !== 'owner') throw new DomainError('forbidden', 'Only an owner of the workspace can do this');
  }

  async list(developerId: string): Promise<WorkspaceView[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${WORKSPACE_COLUMNS} FROM workspaces w
         JOIN workspace_members m ON m.workspace_id = w.id AND m.developer_id = $1
        ORDER BY w.created_at, w.id`,
      [developerId],
    )) as WorkspaceRow[];
    return rows.map(toView);
  }

  async get(developerId: string, workspaceId: string): Promise<WorkspaceView> {
    await this.assertMember(developerId, workspaceId);
    return this.load(this.dataSource.manager, workspaceId);
  }

  async create(principal: DeveloperPrincipal, dto: CreateWorkspaceDto, request: RequestMeta): Promise<WorkspaceView> {
    return this.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(`INSERT INTO workspaces (name, description) VALUES ($1, $2) RETURNING id`, [
        dto.name,
        dto.description ?? '',
      ])) as { id: string }[];
      await manager.query(`INSERT INTO workspace_members (workspace_id, developer_id, role) VALUES ($1, $2, 'owner')`, [
        row.id,
        principal.developerId,
      ]);
      await this.audit.record(manager, {
        eventType: 'workspace_create',
        workspaceId: row.id,
        actor: actorOf(principal),
        target: { type: 'Workspace', id: row.id },
        request,
        metadata: { name: dto.name },
      });
      return this.load(manager, row.id);
    });
  }

  async update(principal: DeveloperPrincipal, workspaceId: string, dto: UpdateWorkspaceDto, request: RequestMeta): Promise<WorkspaceView> {
    return this.dataSource.transaction(async (manager) => {
      await this.assertMember(principal.developerId, workspaceId, manager);
      await manager.query(
        `UPDATE workspaces SET name = COALESCE($2, name), description = COALESCE($3, description), updated_at = now() WHERE id = $1`,
        [workspaceId, dto.name ?? null, dto.description ?? null],
      );
      await this.audit.record(manager, {
        eventType: 'workspace_update',
        workspaceId,
        actor: actorOf(principal),
        target: { type: 'Workspace', id: workspaceId },
        request,
        metadata: { fields: Object.keys(dto) },
      });
      return this.load(manager, workspaceId);
    });
  }

  async remove(principal: DeveloperPrincipal, workspaceId: string, request: RequestMeta): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.assertOwner(principal.developerId, workspaceId, manager);
      await this.audit.record(manager, {
        eventType: 'workspace_delete',
        workspaceId,
        actor: actorOf(principal),
        target: { type: 'Workspace', id: workspaceId },
        request,
      });
      await manager.query(`DELETE FROM workspaces WHERE id = $1`, [workspaceId]);
      // The delete cascades to the workspace's SCIM tokens: every instance drops its cached credentials at commit.
      await notifyAllCredentialsRevoked(manager);
    });
    // This instance synchronously, after commit, before answering.
    this.credentials.evictAll();
  }

  async listMembers(developerId: string, workspaceId: string) {
    await this.assertMember(developerId, workspaceId);
    const rows = (await this.dataSource.query(
      `SELECT d.id AS developer_id, d.email, d.name, m.role, m.created_at FROM workspace_members m
         JOIN developers d ON d.id = m.developer_id WHERE m.workspace_id = $1 ORDER BY m.created_at, d.id`,
      [workspaceId],
    )) as { developer_id: string; email: string; name: string; role: string; created_at: Date }[];
    return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
  }

  async addMember(principal: DeveloperPrincipal, workspaceId: string, dto: AddMemberDto, request: RequestMeta) {
    return this.dataSource.transaction(async (manager) => {
      await this.assertOwner(principal.developerId, workspaceId, manager);
      const [developer] = (await manager.query(`SELECT id, email, name FROM developers WHERE lower(email) = $1`, [dto.email])) as {
        id: string;
        email: string;
        name: string;
      }[];
      if (!developer)
        throw new DomainError('validation_failed', 'No developer has this email; they must sign up first', {
          details: { email: ['no developer with this email'] },
        });
      const inserted = (await manager.query(
        `INSERT INTO workspace_members (workspace_id, developer_id, role) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING created_at`,
        [workspaceId, developer.id, dto.role],
      )) as { created_at: Date }[];
      if (!inserted[0]) throw new DomainError('conflict', 'This developer is already a member');
      await this.audit.record(manager, {
        eventType: 'workspace_member_add',
        workspaceId,
        actor: actorOf(principal),
        target: { type: 'Developer', id: developer.id },
        request,
        metadata: { role: dto.role, email: developer.email },
      });
      return {
        developer_id: developer.id,
        email: developer.email,
        name: developer.name,
        role: dto.role,
        created_at: new Date(inserted[0].created_at).toISOString(),
      };
    });
  }

  async removeMember(principal: DeveloperPrincipal, workspaceId: string, developerId: string, request: RequestMeta): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.assertOwner(principal.developerId, workspaceId, manager);
      if (!isUuid(developerId)) throw notFound('member');
      // Lock the membership rows so two concurrent removals cannot both pass the last-owner check.
      const members = (await manager.query(`SELECT developer_id, role FROM workspace_members WHERE workspace_id = $1 FOR UPDATE`, [
        workspaceId,
      ])) as { developer_id: string; role: string }[];
      const target = members.find((m) => m.developer_id === developerId);
      if (!target) throw notFound('member');
      const owners = members.filter((m) => m.role === 'owner').length;
      if (target.role === 'owner' && owners <= 1) throw new DomainError('conflict', 'The last owner of a workspace cannot be removed');
      await manager.query(`DELETE FROM workspace_members WHERE workspace_id = $1 AND developer_id = $2`, [workspaceId, developerId]);
      await this.audit.record(manager, {
        eventType: 'workspace_member_remove',
        workspaceId,
        actor: actorOf(principal),
        target: { type: 'Developer', id: developerId },
        request,
      });
    });
  }

  private async load(manager: EntityManager, workspaceId: string): Promise<WorkspaceView> {
    const rows = (await manager.query(`SELECT ${WORKSPACE_COLUMNS} FROM workspaces w WHERE w.id = $1`, [workspaceId])) as WorkspaceRow[];
    if (!rows[0]) throw notFound('workspace');
    return toView(rows[0]);
  }
}
