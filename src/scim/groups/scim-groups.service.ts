import { Inject, Injectable } from '@nestjs/common';
import type { ScimPrincipal } from '../../common/auth/principal';
import { isForeignKeyViolation, isUniqueViolation } from '../../common/db-errors';
import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { Tx, UnitOfWork } from '../../database/unit-of-work';
import { applyGroupPatch, GroupChange, memberIds, MemberStep, toDisplayName, toExternalId } from '../patch/apply-group';
import { checkSchemas, getCI, isObject, normalizeGroupPatch } from '../patch/normalize';
import { listPage } from '../protocol/paging';
import type { ListQuery } from '../protocol/list-query';
import { excludes, project, Projection } from '../protocol/projection';
import { scimAuditFacts } from '../scim-audit';
import { rethrowWorkspaceGone, ScimError } from '../scim.errors';
import { GROUP_SCHEMA } from '../filter/attributes';
import { toScimGroup } from './group.mapper';
import type { DirectoryChange, DirectoryFacts } from '../../events/domain-events';
import { GroupRow, MemberChange, MemberRow, OneMemberChange, Renamed, ScimGroupsRepository, StepResult } from './scim-groups.repository';

type Json = Record<string, unknown>;

/** SCIM Groups: membership changes are row inserts/deletes inside one unit of work with the audit row. */
@Injectable()
export class ScimGroupsService {
  private readonly baseUrl: string;

  constructor(
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly groups: ScimGroupsRepository,
  ) {
    this.baseUrl = config.PUBLIC_BASE_URL;
  }

  list(workspaceId: string, q: ListQuery): Promise<Json> {
    return listPage(q, 'g', this.groups.pages(workspaceId, q.filter), async (rows) => {
      const ids = rows.map((r) => r.id);
      const members = excludes(q.projection, 'members') ? undefined : await this.groups.members(workspaceId, ids);
      return rows.map((r) => this.present(r, members, q.projection));
    });
  }

  async get(workspaceId: string, id: string, projection: Projection = {}): Promise<Json> {
    assertId(id);
    const row = await this.groups.find(workspaceId, id);
    if (!row) throw notFound(id);
    return this.presentWithMembers(undefined, workspaceId, row, projection);
  }

  /** A create that loses a race with its workspace's deletion is a 401, like a revoked token (never a 500). */
  async create(actor: ScimPrincipal, body: unknown, request: RequestMeta): Promise<Json> {
    return this.insertGroup(actor, body, request).catch(rethrowWorkspaceGone);
  }

  private async insertGroup(actor: ScimPrincipal, body: unknown, request: RequestMeta): Promise<Json> {
    const { displayName, externalId, members } = readGroupInput(body);
    return this.uow.run(async (tx, events) => {
      const row = await this.groups.insert(tx, actor.workspaceId, displayName, externalId ?? null);
      if (!row) throw taken(displayName);
      const { added } = await this.groups.applyStep(tx, actor.workspaceId, row.id, { kind: 'add', userIds: members ?? [] });
      events.emit('scim_group_create', {
        ...scimAuditFacts(actor, target(row), request, { displayName, members_added: added.length }),
        directory: [
          { kind: 'group', type: 'directory.group.created', groupId: row.id },
          ...membershipChanges(row.id, { added, removed: [] }),
        ],
      });
      return this.presentWithMembers(tx, actor.workspaceId, row, {});
    });
  }

  /** PUT replaces the name, and the membership when `members` is given (absent keeps it: see docs/decisions). */
  async replace(actor: ScimPrincipal, id: string, body: unknown, request: RequestMeta, projection: Projection = {}): Promise<Json> {
    assertId(id);
    const { displayName, externalId, members } = readGroupInput(body);
    const steps: MemberStep[] = members ? [{ kind: 'replace', userIds: members }] : [];
    return this.change(actor, id, { displayName, externalId, members: steps }, request, projection);
  }

  /**
   * PATCH answers the group (200) only when the client asks for a representation with
   * `attributes` or `excludedAttributes`; otherwise undefined (204 No Content), and neither the
   * group nor its members are read back (decision 0133).
   */
  async patch(
    actor: ScimPrincipal,
    id: string,
    body: unknown,
    request: RequestMeta,
    projection: Projection = {},
  ): Promise<Json | undefined> {
    assertId(id);
    const change = applyGroupPatch(normalizeGroupPatch(body));
    if (!asksForRepresentation(projection)) return this.changeQuietly(actor, id, change, request);
    return this.change(actor, id, change, request, projection);
  }

  async delete(actor: ScimPrincipal, id: string, request: RequestMeta): Promise<void> {
    assertId(id);
    await this.uow.run(async (tx, events) => {
      const row = await this.groups.delete(tx, actor.workspaceId, id);
      if (!row) throw notFound(id);
      events.emit('scim_group_delete', {
        ...scimAuditFacts(actor, target(row), request, { displayName: row.displayName }),
        directory: [{ kind: 'group-deleted', group: toScimGroup(row, undefined, this.baseUrl) }],
      });
    });
  }

  /**
   * Nothing is locked for the whole change: member steps are row inserts (ON CONFLICT DO NOTHING)
   * and deletes, so concurrent PATCHes of one group never lose or duplicate a member and wait on
   * each other only for the same member row; meta.lastModified is this backend's row of
   * scim_group_changes (never held by another transaction in flight). A rename locks the group's
   * row until commit, so renames follow each other and each audit row's previous_displayName is
   * the name the previous one left; a membership change's audit row says what it added and
   * removed, not a name it did not hold (decision 0121).
   */
  private async change(actor: ScimPrincipal, id: string, change: GroupChange, request: RequestMeta, projection: Projection): Promise<Json> {
    return this.uow.run(async (tx, events) => {
      // No read first: every statement is scoped to the workspace, and the read below answers 404.
      const renamed = await this.rename(tx, actor.workspaceId, id, change);
      const steps = await this.applySteps(tx, actor.workspaceId, id, change.members);
      const row = await this.groups.find(actor.workspaceId, id, tx);
      if (!row) throw notFound(id);
      if (renamed || steps.added.length || steps.removed.length) {
        events.emit('scim_group_update', groupUpdated(actor, id, request, renamed, row, steps));
      }
      return this.presentWithMembers(tx, actor.workspaceId, row, projection);
    });
  }

  /**
   * The change of `change` without its read-back (204): the audit row's names come from the
   * change itself, and the group's existence is checked only when nothing was written (a rename
   * or a member row written proves it; a foreign key violation answers 404 as in change).
   */
  private async changeQuietly(actor: ScimPrincipal, id: string, change: GroupChange, request: RequestMeta): Promise<undefined> {
    const member = oneMember(change);
    if (member) return this.changeOneMember(actor, id, member, request);
    await this.uow.run(async (tx, events) => {
      const renamed = await this.rename(tx, actor.workspaceId, id, change);
      const steps = await this.applySteps(tx, actor.workspaceId, id, change.members);
      if (!renamed && !steps.added.length && !steps.removed.length) {
        if (!(await this.groups.exists(tx, actor.workspaceId, id))) throw notFound(id);
        return;
      }
      events.emit('scim_group_update', groupUpdated(actor, id, request, renamed, change, steps));
    });
    return undefined;
  }

  /**
   * One member added or removed, nothing else (what Okta and Entra send one at a time), as one statement that
   * carries its audit row and directory event (decision 0991): they are said up front and written only if the
   * member changed, so a PATCH that changes nothing writes neither, as changeQuietly. With nothing changed,
   * the group's existence decides between 204 and 404.
   */
  private async changeOneMember(actor: ScimPrincipal, id: string, member: OneMemberChange, request: RequestMeta): Promise<undefined> {
    const added = member.kind === 'add';
    const changed = await this.uow
      .runAsOneStatement(
        (events) =>
          events.emit('scim_group_update', {
            ...scimAuditFacts(actor, { type: 'ScimGroup', id }, request, { members_added: added ? 1 : 0, members_removed: added ? 0 : 1 }),
            directory: [
              {
                kind: 'membership',
                type: added ? 'directory.group.user_added' : 'directory.group.user_removed',
                groupIds: [id],
                users: [{ id: member.userId }],
              },
            ],
          }),
        (on, riders) => this.groups.changeOneMember(on, actor.workspaceId, id, member, riders),
        (wrote) => wrote,
      )
      .catch((err: unknown) => {
        throw isGroupGone(err) ? notFound(id) : err;
      });
    if (!changed && !(await this.groups.exists(null, actor.workspaceId, id))) throw notFound(id);
    return undefined;
  }

  /** Runs the member steps in order (each records the change it made); 404 when the group was deleted meanwhile (its foreign key). */
  private async applySteps(tx: Tx, workspaceId: string, id: string, steps: MemberStep[]): Promise<StepResult> {
    const added: MemberChange[] = [];
    const removed: MemberChange[] = [];
    try {
      for (const step of steps) {
        const r = await this.groups.applyStep(tx, workspaceId, id, step);
        added.push(...r.added);
        removed.push(...r.removed);
      }
    } catch (err) {
      throw isGroupGone(err) ? notFound(id) : err;
    }
    return { added, removed };
  }

  /** What the rename replaced, or undefined when the group already had it (409 when another group of the workspace has the name). */
  private async rename(tx: Tx, workspaceId: string, id: string, change: GroupChange): Promise<Renamed | undefined> {
    try {
      return await this.groups.rename(tx, workspaceId, id, { displayName: change.displayName, externalId: change.externalId });
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(change.displayName ?? '');
      throw err;
    }
  }

  private async presentWithMembers(tx: Tx | undefined, workspaceId: string, row: GroupRow, projection: Projection): Promise<Json> {
    const members = excludes(projection, 'members') ? undefined : await this.groups.members(workspaceId, [row.id], tx);
    return this.present(row, members, projection);
  }

  private present(row: GroupRow, members: MemberRow[] | undefined, projection: Projection): Json {
    return project(
      toScimGroup(
        row,
        members?.filter((m) => m.groupId === row.id),
        this.baseUrl,
      ),
      projection,
    );
  }
}

/**
 * POST/PUT body: displayName required; externalId and members optional ([{value}]). An absent
 * externalId or members keeps what is stored on PUT (decisions 0102, 0109); null clears externalId.
 */
function readGroupInput(body: unknown): { displayName: string; externalId?: string | null; members?: string[] } {
  if (!isObject(body)) throw new ScimError('invalidSyntax', 'the body must be a SCIM Group JSON object');
  checkSchemas(body, GROUP_SCHEMA);
  const members = getCI(body, 'members');
  if (members !== undefined && members !== null && !Array.isArray(members)) throw new ScimError('invalidValue', 'members must be an array');
  return {
    displayName: toDisplayName(getCI(body, 'displayName')),
    ...(getCI(body, 'externalId') !== undefined ? { externalId: toExternalId(getCI(body, 'externalId')) } : {}),
    ...(members !== undefined && members !== null ? { members: memberIds(members) } : {}),
  };
}

/**
 * The audit facts and directory events of a group's update: the names a rename changed (`now`: what the
 * group holds after it, undefined where it kept its value) and how many members the steps added and removed.
 */
function groupUpdated(
  actor: ScimPrincipal,
  id: string,
  request: RequestMeta,
  renamed: Renamed | undefined,
  now: { displayName?: string; externalId?: string | null },
  steps: StepResult,
): DirectoryFacts {
  const renamedAttributes = renamed ? renamedAttributesOf(renamed, now) : [];
  const metadata = {
    ...(renamed && renamedAttributes.includes('displayName')
      ? { displayName: now.displayName, previous_displayName: renamed.previousDisplayName }
      : {}),
    ...(renamedAttributes.includes('externalId') ? { externalId: now.externalId } : {}),
    members_added: steps.added.length,
    members_removed: steps.removed.length,
  };
  return {
    ...scimAuditFacts(actor, { type: 'ScimGroup', id }, request, metadata),
    directory: groupChanges(id, renamedAttributes, steps),
  };
}

/** Which of displayName and externalId a rename changed (`now`: what the group holds after it, undefined where it kept its value). */
function renamedAttributesOf(renamed: Renamed, now: { displayName?: string; externalId?: string | null }): string[] {
  return [
    ...(now.displayName !== undefined && renamed.previousDisplayName !== now.displayName ? ['displayName'] : []),
    ...(now.externalId !== undefined && renamed.previousExternalId !== now.externalId ? ['externalId'] : []),
  ];
}

/**
 * The directory events of a group change (decision 0510): the group's update when a rename changed
 * it, then its removed and added members (a user removed and added back by one PUT shows as both).
 */
function groupChanges(groupId: string, renamedAttributes: string[], steps: StepResult): DirectoryChange[] {
  return [
    ...(renamedAttributes.length
      ? [{ kind: 'group' as const, type: 'directory.group.updated' as const, groupId, changed: renamedAttributes }]
      : []),
    ...membershipChanges(groupId, steps),
  ];
}

function membershipChanges(groupId: string, steps: StepResult): DirectoryChange[] {
  const users = (members: MemberChange[]) => members.map((m) => ({ id: m.userId, userName: m.email }));
  return [
    ...(steps.removed.length
      ? [{ kind: 'membership' as const, type: 'directory.group.user_removed' as const, groupIds: [groupId], users: users(steps.removed) }]
      : []),
    ...(steps.added.length
      ? [{ kind: 'membership' as const, type: 'directory.group.user_added' as const, groupIds: [groupId], users: users(steps.added) }]
      : []),
  ];
}

/** The one member a PATCH adds or removes when that is all it does (a `members[value eq "<id>"]` removal included). */
function oneMember(change: GroupChange): OneMemberChange | undefined {
  if (change.displayName !== undefined || change.externalId !== undefined || change.members.length !== 1) return undefined;
  const [step] = change.members;
  if ((step.kind === 'add' || step.kind === 'remove') && step.userIds.length === 1) return { kind: step.kind, userId: step.userIds[0] };
  if (step.kind === 'removeWhere') {
    const f = step.filter;
    const byId =
      f.type === 'compare' &&
      f.op === 'eq' &&
      f.path.attr.toLowerCase() === 'value' &&
      f.path.sub === undefined &&
      f.path.urn === undefined;
    if (byId && typeof f.value === 'string' && isUuid(f.value)) return { kind: 'remove', userId: f.value };
  }
  return undefined;
}

/** The group was deleted while the change ran: its member and change rows' foreign keys refused them. */
function isGroupGone(err: unknown): boolean {
  return isForeignKeyViolation(err, 'scim_group_members_group_id_fkey') || isForeignKeyViolation(err, 'scim_group_changes_group_id_fkey');
}

/** Whether the query asked for a representation (non-empty `attributes` or `excludedAttributes`). */
const asksForRepresentation = (p: Projection) => p.include !== undefined || p.exclude !== undefined;
const target = (row: GroupRow) => ({ type: 'ScimGroup' as const, id: row.id });
const notFound = (id: string) => ScimError.notFound('Group', id);
const taken = (name: string) => new ScimError('uniqueness', `displayName ${name} is already taken in this workspace`);

function assertId(id: string): void {
  if (!isUuid(id)) throw notFound(id);
}
