import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ScimPrincipal } from '../../common/auth/principal';
import { isUniqueViolation } from '../../common/db-errors';
import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { Tx, UnitOfWork } from '../../database/unit-of-work';
import type { DirectoryChange } from '../../events/domain-events';
import { SessionsService } from '../../sessions/sessions.service';
import type { DeniedToken } from '../../sessions/tokens/token-denylist.repository';
import { ScimGroupsRepository } from '../groups/scim-groups.repository';
import { applyUserPatch, UserState } from '../patch/apply-user';
import { normalizeUserPatch } from '../patch/normalize';
import { listPage } from '../protocol/paging';
import type { ListQuery } from '../protocol/list-query';
import { project, Projection } from '../protocol/projection';
import { scimAuditFacts } from '../scim-audit';
import { rethrowWorkspaceGone, ScimError } from '../scim.errors';
import { ScimUsersRepository, UserRow } from './scim-users.repository';
import { readUserInput } from './user-input';
import { toScimUser, toState } from './user.mapper';

type Json = Record<string, unknown>;

/** SCIM Users (spec area A): rules and units of work; every write commits with its audit row. */
@Injectable()
export class ScimUsersService {
  private readonly baseUrl: string;

  constructor(
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: ScimUsersRepository,
    private readonly groups: ScimGroupsRepository,
    private readonly sessions: SessionsService,
  ) {
    this.baseUrl = config.PUBLIC_BASE_URL;
  }

  list(workspaceId: string, q: ListQuery): Promise<Json> {
    return listPage(q, 'u', this.users.pages(workspaceId, q.filter), (rows) => rows.map((r) => this.present(r, q.projection)));
  }

  async get(workspaceId: string, id: string, projection: Projection = {}): Promise<Json> {
    return this.present(await this.load(workspaceId, id), projection);
  }

  /**
   * A userName (workspace, case-insensitive) taken by an active user is a 409 and writes nothing;
   * taken by a deactivated user, the POST reactivates that user (decision 0131).
   */
  async create(actor: ScimPrincipal, body: unknown, request: RequestMeta): Promise<Json> {
    const input = readUserInput(body);
    const state: UserState = { email: input.email, firstName: input.firstName, lastName: input.lastName, isActive: input.isActive ?? true };
    const id = randomUUID();
    // The hottest write an IdP sends: one statement carrying its audit row (decision 0016).
    const row = await this.uow
      .runAsOneStatement(
        (events) =>
          events.emit('scim_user_create', {
            ...scimAuditFacts(actor, { type: 'EndUser', id, email: state.email }, request, {
              userName: state.email,
              active: state.isActive,
            }),
            directory: [{ kind: 'user', type: 'directory.user.created', user: this.unsaved(id, state), stampedNow: true }],
          }),
        (on, riders) => this.users.insert(on, actor.workspaceId, id, state, riders),
        (created) => created !== undefined,
      )
      .catch(rethrowWorkspaceGone);
    if (!row) return toScimUser(await this.reactivate(actor, state, request), this.baseUrl);
    return toScimUser(row, this.baseUrl);
  }

  /**
   * IdPs re-provision a person they deactivated with a POST (Okta's reassignment, Entra's re-create after
   * a hard delete): the same user comes back, its attributes replaced as a PUT would, audited as
   * scim_user_update with reactivated: true. An active holder of the name is still a 409.
   */
  private async reactivate(actor: ScimPrincipal, state: UserState, request: RequestMeta): Promise<UserRow> {
    return this.uow.run(async (tx, events) => {
      const current = await this.users.lockByEmail(tx, actor.workspaceId, state.email);
      // Gone since the insert saw it (deleted with its workspace, renamed): the name is free, but a retry is the client's call.
      if (!current || current.isActive) throw taken(state.email);
      const updated = await this.update(tx, actor.workspaceId, current.id, state);
      const changed = changedFields(toState(current), state);
      events.emit('scim_user_update', {
        ...scimAuditFacts(actor, target(updated), request, { changed, active: updated.isActive, reactivated: updated.isActive }),
        directory: [this.userChange(current.isActive, updated, changed)],
      });
      return updated;
    });
  }

  /** PUT: the body replaces the stored attributes; an absent `active` keeps the current value. */
  async replace(actor: ScimPrincipal, id: string, body: unknown, request: RequestMeta, projection: Projection = {}): Promise<Json> {
    assertId(id);
    const input = readUserInput(body);
    return this.write(actor, id, request, projection, (current) => ({
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      isActive: input.isActive ?? current.isActive,
    }));
  }

  async patch(actor: ScimPrincipal, id: string, body: unknown, request: RequestMeta, projection: Projection = {}): Promise<Json> {
    assertId(id);
    const ops = normalizeUserPatch(body);
    return this.write(actor, id, request, projection, (current) => applyUserPatch(current, ops));
  }

  /** DELETE is soft (spec): the user is deactivated, stays readable, and leaves every group. */
  async deactivate(actor: ScimPrincipal, id: string, request: RequestMeta): Promise<void> {
    assertId(id);
    const denied = await this.uow.run(async (tx, events) => {
      const current = await this.users.lock(tx, actor.workspaceId, id);
      if (!current) throw notFound(id);
      const updated = await this.users.update(tx, actor.workspaceId, id, { ...toState(current), isActive: false });
      const groups = await this.groups.removeUserFromAll(tx, actor.workspaceId, id);
      const ended = await this.endSessions(tx, actor.workspaceId, id);
      const directory: DirectoryChange[] = [];
      if (current.isActive && updated) directory.push(this.userChange(true, updated, ['active']));
      if (groups.length) {
        const users = [{ id, userName: current.email }];
        directory.push({ kind: 'membership', type: 'directory.group.user_removed', groupIds: groups, users });
      }
      events.emit('scim_user_delete', {
        ...scimAuditFacts(actor, target(current), request, {
          userName: current.email,
          groups_left: groups,
          sessions_ended: ended.sessionsEnded,
        }),
        directory,
      });
      return ended.denied;
    });
    await this.sessions.mirrorDenied(denied);
  }

  private async write(
    actor: ScimPrincipal,
    id: string,
    request: RequestMeta,
    projection: Projection,
    change: (s: UserState) => UserState,
  ): Promise<Json> {
    let denied: DeniedToken[] = [];
    const row = await this.uow.run(async (tx, events) => {
      const current = await this.users.lock(tx, actor.workspaceId, id);
      if (!current) throw notFound(id);
      const before = toState(current);
      const after = change(before);
      const changed = changedFields(before, after);
      if (changed.length === 0) return current;
      const updated = await this.update(tx, actor.workspaceId, id, after);
      const metadata: Record<string, unknown> = { changed, active: updated.isActive };
      if (before.isActive && !after.isActive) {
        const ended = await this.endSessions(tx, actor.workspaceId, id);
        metadata.sessions_ended = ended.sessionsEnded;
        denied = ended.denied;
      }
      events.emit('scim_user_update', {
        ...scimAuditFacts(actor, target(updated), request, metadata),
        directory: [this.userChange(before.isActive, updated, changed)],
      });
      return updated;
    });
    await this.sessions.mirrorDenied(denied);
    return this.present(row, projection);
  }

  /** Deactivation ends every session of the person and denylists their tokens (decision 0131). */
  private endSessions(tx: Tx, workspaceId: string, id: string) {
    return this.sessions.endAllOfUser(tx, workspaceId, id, 'scim_deactivated');
  }

  private async update(tx: Tx, workspaceId: string, id: string, state: UserState): Promise<UserRow> {
    try {
      // The caller locked the row first: it is there.
      const row = await this.users.update(tx, workspaceId, id, state);
      if (!row) throw notFound(id);
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(state.email);
      throw err;
    }
  }

  private async load(workspaceId: string, id: string): Promise<UserRow> {
    assertId(id);
    const row = await this.users.find(workspaceId, id);
    if (!row) throw notFound(id);
    return row;
  }

  /**
   * The directory event of a write that changed `changed` (decision 0510): the user as GET shows it
   * now, typed by what happened to `active`.
   */
  private userChange(wasActive: boolean, row: UserRow, changed: string[]): DirectoryChange {
    const type =
      wasActive && !row.isActive
        ? 'directory.user.deactivated'
        : !wasActive && row.isActive
          ? 'directory.user.reactivated'
          : 'directory.user.updated';
    return { kind: 'user', type, user: toScimUser(row, this.baseUrl), changed };
  }

  /** The user a create is about to insert, as GET will show it; its meta times are stamped by the statement (stampedNow). */
  private unsaved(id: string, state: UserState): Json {
    const epoch = new Date(0);
    const row: UserRow = {
      id,
      email: state.email,
      firstName: state.firstName ?? '',
      lastName: state.lastName ?? '',
      isActive: state.isActive,
      createdAt: epoch,
      updatedAt: epoch,
    };
    return toScimUser(row, this.baseUrl);
  }

  private present(row: UserRow, projection: Projection): Json {
    return project(toScimUser(row, this.baseUrl), projection);
  }
}

const target = (row: UserRow) => ({ type: 'EndUser' as const, id: row.id, email: row.email });
const notFound = (id: string) => ScimError.notFound('User', id);
const taken = (email: string) => new ScimError('uniqueness', `userName ${email} is already taken in this workspace`);

/** A non-UUID id is a 404 before any SQL (a uuid cast would be a 500). */
function assertId(id: string): void {
  if (!isUuid(id)) throw notFound(id);
}

function changedFields(a: UserState, b: UserState): string[] {
  const names: Record<keyof UserState, string> = {
    email: 'userName',
    firstName: 'name.givenName',
    lastName: 'name.familyName',
    isActive: 'active',
  };
  return (Object.keys(names) as (keyof UserState)[]).filter((k) => (a[k] ?? null) !== (b[k] ?? null)).map((k) => names[k]);
}
