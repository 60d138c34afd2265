import { Injectable } from '@nestjs/common';
import { CredentialCache, membershipTag, notifyAllCredentialsRevoked, notifyCredentialRevoked } from '../common/auth/credential-cache';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { DevelopersRepository } from '../developers/developers.repository';
import { AddMemberDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './dto/workspace.dto';
import { WorkspaceMembersRepository } from './workspace-members.repository';
import { assertOwner, type WorkspaceScope } from './workspace-scoped';
import { WorkspaceRow, WorkspacesRepository } from './workspaces.repository';
import { COMMON_ERRORS, notFound } from '../common/common.errors';
import type { ViewOf } from '../api-docs/response-schema';
import type { WorkspaceSchema } from './workspaces.schemas';
import { byDeveloper } from '../events/domain-events';

export type { WorkspaceRole } from './entities/workspace-member.entity';

export type WorkspaceView = ViewOf<typeof WorkspaceSchema>;

const toView = (r: WorkspaceRow): WorkspaceView => ({
  id: r.id,
  name: r.name,
  description: r.description,
  database_count: r.databaseCount,
  member_count: r.memberCount,
  created_at: r.createdAt.toISOString(),
});

/**
 * Workspaces and their members. Whether the caller belongs to the workspace is settled before a
 * method runs (WorkspaceMemberGuard): the methods that act in one take its WorkspaceScope.
 */
@Injectable()
export class WorkspacesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly workspaces: WorkspacesRepository,
    private readonly members: WorkspaceMembersRepository,
    private readonly developers: DevelopersRepository,
    private readonly credentials: CredentialCache,
  ) {}

  async list(developerId: string): Promise<WorkspaceView[]> {
    return (await this.workspaces.listForDeveloper(developerId)).map(toView);
  }

  get(scope: WorkspaceScope): Promise<WorkspaceView> {
    return this.load(null, scope.workspaceId);
  }

  async create(principal: DeveloperPrincipal, dto: CreateWorkspaceDto, request: RequestMeta): Promise<WorkspaceView> {
    return this.uow.run(async (tx, events) => {
      const workspaceId = await this.workspaces.insert(tx, { name: dto.name, description: dto.description ?? '' });
      await this.members.add(tx, workspaceId, principal.developerId, 'owner');
      events.emit('workspace_create', {
        ...byDeveloper(principal, workspaceId, { type: 'Workspace', id: workspaceId }, request),
        metadata: { name: dto.name },
      });
      return this.load(tx, workspaceId);
    });
  }

  async update(
    { workspaceId, developer: principal }: WorkspaceScope,
    dto: UpdateWorkspaceDto,
    request: RequestMeta,
  ): Promise<WorkspaceView> {
    return this.uow.run(async (tx, events) => {
      await this.workspaces.update(tx, workspaceId, { name: dto.name, description: dto.description });
      events.emit('workspace_update', {
        ...byDeveloper(principal, workspaceId, { type: 'Workspace', id: workspaceId }, request),
        metadata: { fields: Object.keys(dto) },
      });
      return this.load(tx, workspaceId);
    });
  }

  async remove(scope: WorkspaceScope, request: RequestMeta): Promise<void> {
    assertOwner(scope);
    const { workspaceId, developer: principal } = scope;
    await this.uow.run(async (tx, events) => {
      await this.workspaces.delete(tx, workspaceId);
      // The delete cascades to the workspace's SCIM tokens: every instance drops its cached credentials at
      // commit, this one before answering.
      const notice = await notifyAllCredentialsRevoked(tx);
      events.afterCommit('evict every cached credential everywhere', () => this.credentials.evictEverywhere(notice));
      events.emit('workspace_delete', byDeveloper(principal, workspaceId, { type: 'Workspace', id: workspaceId }, request));
    });
  }

  async listMembers({ workspaceId }: WorkspaceScope) {
    const members = await this.members.listWithDevelopers(workspaceId);
    return members.map((m) => ({
      developer_id: m.developerId,
      email: m.email,
      name: m.name,
      role: m.role,
      created_at: m.createdAt.toISOString(),
    }));
  }

  async addMember(scope: WorkspaceScope, dto: AddMemberDto, request: RequestMeta) {
    assertOwner(scope);
    const { workspaceId, developer: principal } = scope;
    return this.uow.run(async (tx, events) => {
      const developer = await this.developers.findByEmail(tx, dto.email);
      if (!developer) {
        throw new DomainError(COMMON_ERRORS.validation_failed, 'No developer has this email; they must sign up first', {
          details: { email: ['no developer with this email'] },
        });
      }
      const createdAt = await this.members.add(tx, workspaceId, developer.id, dto.role);
      if (!createdAt) throw new DomainError(COMMON_ERRORS.conflict, 'This developer is already a member');
      events.emit('workspace_member_add', {
        ...byDeveloper(principal, workspaceId, { type: 'Developer', id: developer.id }, request),
        metadata: { role: dto.role, email: developer.email },
      });
      return {
        developer_id: developer.id,
        email: developer.email,
        name: developer.name,
        role: dto.role,
        created_at: createdAt.toISOString(),
      };
    });
  }

  async removeMember(scope: WorkspaceScope, developerId: string, request: RequestMeta): Promise<void> {
    assertOwner(scope);
    const { workspaceId, developer: principal } = scope;
    await this.uow.run(async (tx, events) => {
      if (!isUuid(developerId)) throw notFound('member');
      // Locks the membership rows so two concurrent removals cannot both pass the last-owner check.
      const members = await this.members.lockAll(tx, workspaceId);
      const target = members.find((m) => m.developerId === developerId);
      if (!target) throw notFound('member');
      const owners = members.filter((m) => m.role === 'owner').length;
      if (target.role === 'owner' && owners <= 1) {
        throw new DomainError(COMMON_ERRORS.conflict, 'The last owner of a workspace cannot be removed');
      }
      await this.members.remove(tx, workspaceId, developerId);
      // Cached memberships of the workspace die on every instance at commit, on this one before answering.
      const notice = await notifyCredentialRevoked(tx, membershipTag(workspaceId));
      events.afterCommit('evict cached memberships everywhere', () => this.credentials.evictEverywhere(notice));
      events.emit('workspace_member_remove', byDeveloper(principal, workspaceId, { type: 'Developer', id: developerId }, request));
    });
  }

  private async load(tx: Tx | null, workspaceId: string): Promise<WorkspaceView> {
    const row = await this.workspaces.findWithCounts(tx, workspaceId);
    if (!row) throw notFound('workspace');
    return toView(row);
  }
}
