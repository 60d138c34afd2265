import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import type { ScimPrincipal } from '../../common/auth/principal';
import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { applyUserPatch, UserState } from '../patch/apply-user';
import { normalizeUserPatch } from '../patch/normalize';
import { ListQuery, listResponse } from '../protocol/list-query';
import { project, Projection } from '../protocol/projection';
import { isTimestampCollision } from '../../audit/audit.service';
import { isUniqueViolation } from '../../common/db-errors';
import { scimAuditEntry } from '../scim-audit';
import { ScimError } from '../scim.errors';
import { ScimUsersRepository, toState } from './scim-users.repository';
import { readUserInput } from './user-input';
import { toScimUser, UserRow } from './user.mapper';

type Json = Record<string, unknown>;

/** SCIM Users (spec area A): rules and transactions; every write commits with its audit row. */
@Injectable()
export class ScimUsersService {
  private readonly baseUrl: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: ScimUsersRepository,
    private readonly audit: AuditService,
  ) {
    this.baseUrl = config.PUBLIC_BASE_URL;
  }

  async list(workspaceId: string, q: ListQuery): Promise<Json> {
    const { total, rows } = await this.users.list(workspaceId, q.filter, q.startIndex - 1, q.count);
    return listResponse(
      total,
      q.startIndex,
      rows.map((r) => this.present(r, q.projection)),
    );
  }

  async get(workspaceId: string, id: string, projection: Projection = {}): Promise<Json> {
    return this.present(await this.load(workspaceId, id), projection);
  }

  /** The user row and its audit row are one statement: they commit together (spec: SCIM writes are audited). */
  async create(actor: ScimPrincipal, body: unknown, request: RequestMeta): Promise<Json> {
    const input = readUserInput(body);
    const state: UserState = { email: input.email, firstName: input.firstName, lastName: input.lastName, isActive: input.isActive ?? true };
    const id = randomUUID();
    const audit = scimAuditEntry('scim_user_create', actor, { type: 'EndUser', id }, request, {
      userName: state.email,
      active: state.isActive,
    });
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await this.users.insertAudited(actor.workspaceId, id, state, audit);
        if (!row) throw taken(state.email);
        return toScimUser(row, this.baseUrl);
      } catch (err) {
        // Two audit rows of one workspace can race for the same created_at (its unique, bumped
        // timestamp); the statement rolled back whole, so running it again is safe.
        if (attempt >= 5 || !isTimestampCollision(err)) throw err;
      }
    }
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
    await this.dataSource.transaction(async (manager) => {
      const current = await this.users.find(actor.workspaceId, id, manager);
      if (!current) throw notFound(id);
      await this.users.update(manager, actor.workspaceId, id, { ...toState(current), isActive: false });
      const groups = await this.users.removeMemberships(manager, actor.workspaceId, id);
      await this.audit.record(
        manager,
        scimAuditEntry('scim_user_delete', actor, target(current), request, { userName: current.email, groups_left: groups }),
      );
    });
  }

  private async write(
    actor: ScimPrincipal,
    id: string,
    request: RequestMeta,
    projection: Projection,
    change: (s: UserState) => UserState,
  ): Promise<Json> {
    const row = await this.dataSource.transaction(async (manager) => {
      const current = await this.users.find(actor.workspaceId, id, manager);
      if (!current) throw notFound(id);
      const before = toState(current);
      const after = change(before);
      const changed = changedFields(before, after);
      if (changed.length === 0) return current;
      const updated = await this.update(manager, actor.workspaceId, id, after);
      await this.audit.record(
        manager,
        scimAuditEntry('scim_user_update', actor, target(updated), request, { changed, active: updated.is_active }),
      );
      return updated;
    });
    return this.present(row, projection);
  }

  private async update(manager: EntityManager, workspaceId: string, id: string, state: UserState): Promise<UserRow> {
    try {
      return await this.users.update(manager, workspaceId, id, state);
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

  private present(row: UserRow, projection: Projection): Json {
    return project(toScimUser(row, this.baseUrl), projection);
  }
}

const target = (row: UserRow) => ({ type: 'EndUser' as const, id: row.id });
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
