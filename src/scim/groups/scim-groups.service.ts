import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import type { ScimPrincipal } from '../../common/auth/principal';
import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { applyGroupPatch, GroupChange, memberIds, MemberStep, toDisplayName } from '../patch/apply-group';
import { getCI, isObject, normalizeGroupPatch } from '../patch/normalize';
import { ListQuery, listResponse } from '../protocol/list-query';
import { excludes, project, Projection } from '../protocol/projection';
import { isUniqueViolation } from '../../common/db-errors';
import { scimAuditEntry } from '../scim-audit';
import { ScimError } from '../scim.errors';
import { GroupRow, MemberRow, toScimGroup } from './group.mapper';
import { ScimGroupsRepository } from './scim-groups.repository';

type Json = Record<string, unknown>;

/** SCIM Groups: membership changes are row inserts/deletes inside one transaction with the audit row. */
@Injectable()
export class ScimGroupsService {
  private readonly baseUrl: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly groups: ScimGroupsRepository,
    private readonly audit: AuditService,
  ) {
    this.baseUrl = config.PUBLIC_BASE_URL;
  }

  async list(workspaceId: string, q: ListQuery): Promise<Json> {
    const { total, rows } = await this.groups.list(workspaceId, q.filter, q.startIndex - 1, q.count);
    const members = excludes(q.projection, 'members')
      ? undefined
      : await this.groups.members(
          workspaceId,
          rows.map((r) => r.id),
        );
    return listResponse(
      total,
      q.startIndex,
      rows.map((r) => this.present(r, members, q.projection)),
    );
  }

  async get(workspaceId: string, id: string, projection: Projection = {}): Promise<Json> {
    assertId(id);
    const row = await this.groups.find(workspaceId, id);
    if (!row) throw notFound(id);
    return this.presentWithMembers(this.dataSource.manager, workspaceId, row, projection);
  }

  async create(actor: ScimPrincipal, body: unknown, request: RequestMeta): Promise<Json> {
    const { displayName, members } = readGroupInput(body);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.groups.insert(manager, actor.workspaceId, displayName);
      if (!row) throw taken(displayName);
      const { added } = await this.groups.applyStep(manager, actor.workspaceId, row.id, { kind: 'add', userIds: members ?? [] });
      await this.audit.record(
        manager,
        scimAuditEntry('scim_group_create', actor, target(row), request, { displayName, members_added: added }),
      );
      return this.presentWithMembers(manager, actor.workspaceId, row, {});
    });
  }

  /** PUT replaces the name, and the membership when `members` is given (absent keeps it: see docs/decisions). */
  async replace(actor: ScimPrincipal, id: string, body: unknown, request: RequestMeta, projection: Projection = {}): Promise<Json> {
    assertId(id);
    const { displayName, members } = readGroupInput(body);
    const steps: MemberStep[] = members ? [{ kind: 'replace', userIds: members }] : [];
    return this.change(actor, id, { displayName, members: steps }, request, projection);
  }

  async patch(actor: ScimPrincipal, id: string, body: unknown, request: RequestMeta, projection: Projection = {}): Promise<Json> {
    assertId(id);
    return this.change(actor, id, applyGroupPatch(normalizeGroupPatch(body)), request, projection);
  }

  async delete(actor: ScimPrincipal, id: string, request: RequestMeta): Promise<void> {
    assertId(id);
    await this.dataSource.transaction(async (manager) => {
      const row = await this.groups.delete(manager, actor.workspaceId, id);
      if (!row) throw notFound(id);
      await this.audit.record(manager, scimAuditEntry('scim_group_delete', actor, target(row), request, { displayName: row.display_name }));
    });
  }

  private async change(actor: ScimPrincipal, id: string, change: GroupChange, request: RequestMeta, projection: Projection): Promise<Json> {
    return this.dataSource.transaction(async (manager) => {
      const before = await this.groups.find(actor.workspaceId, id, manager);
      if (!before) throw notFound(id);
      const row = await this.rename(manager, actor.workspaceId, id, change.displayName);
      let added = 0;
      let removed = 0;
      for (const step of change.members) {
        const r = await this.groups.applyStep(manager, actor.workspaceId, id, step);
        added += r.added;
        removed += r.removed;
      }
      const renamed = row.display_name !== before.display_name;
      if (renamed || added || removed) {
        const metadata = {
          displayName: row.display_name,
          ...(renamed ? { previous_displayName: before.display_name } : {}),
          members_added: added,
          members_removed: removed,
        };
        await this.audit.record(manager, scimAuditEntry('scim_group_update', actor, target(row), request, metadata));
      }
      return this.presentWithMembers(manager, actor.workspaceId, row, projection);
    });
  }

  /** Also takes the row lock that serialises concurrent changes to one group. */
  private async rename(manager: EntityManager, workspaceId: string, id: string, displayName?: string): Promise<GroupRow> {
    try {
      const row = await this.groups.touch(manager, workspaceId, id, displayName);
      if (!row) throw notFound(id);
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(displayName ?? '');
      throw err;
    }
  }

  private async presentWithMembers(manager: EntityManager, workspaceId: string, row: GroupRow, projection: Projection): Promise<Json> {
    const members = excludes(projection, 'members') ? undefined : await this.groups.members(workspaceId, [row.id], manager);
    return this.present(row, members, projection);
  }

  private present(row: GroupRow, members: MemberRow[] | undefined, projection: Projection): Json {
    return project(
      toScimGroup(
        row,
        members?.filter((m) => m.group_id === row.id),
        this.baseUrl,
      ),
      projection,
    );
  }
}

/** POST/PUT body: displayName required; members optional ([{value}]). */
function readGroupInput(body: unknown): { displayName: string; members?: string[] } {
  if (!isObject(body)) throw new ScimError('invalidSyntax', 'the body must be a SCIM Group JSON object');
  const members = getCI(body, 'members');
  if (members !== undefined && members !== null && !Array.isArray(members)) throw new ScimError('invalidValue', 'members must be an array');
  return {
    displayName: toDisplayName(getCI(body, 'displayName')),
    ...(members !== undefined && members !== null ? { members: memberIds(members) } : {}),
  };
}

const target = (row: GroupRow) => ({ type: 'ScimGroup' as const, id: row.id });
const notFound = (id: string) => ScimError.notFound('Group', id);
const taken = (name: string) => new ScimError('uniqueness', `displayName ${name} is already taken in this workspace`);

function assertId(id: string): void {
  if (!isUuid(id)) throw notFound(id);
}
