import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import type { DeveloperPrincipal, Principal } from '../common/auth/principal';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import type { WorkspaceRole } from './entities/workspace-member.entity';
import { WorkspaceMembership } from './workspace-membership';
import { COMMON_ERRORS, notFound } from '../common/common.errors';

/**
 * Proof that the developer is a member of the workspace, with their role: what a scoped route hands its
 * service. It carries the developer as they authenticated, so a service records who acted (the audit
 * actor) from the scope alone and a handler passes one value, not the principal beside its proof.
 */
export interface WorkspaceScope {
  readonly workspaceId: string;
  readonly developerId: string;
  readonly role: WorkspaceRole;
  readonly developer: DeveloperPrincipal;
}

/** Where a route's request names its workspace: a path parameter, a query field or a body field. */
type IdSource = 'param' | 'query' | 'body';
interface IdLocation {
  source: IdSource;
  name: string;
}

const WORKSPACE_ID_AT = 'workspace:id-at';
type ScopedRequest = Request & { user?: Principal; workspaceScope?: WorkspaceScope };

/**
 * The scope of a request whose id the guard left to validation (missing, or not a UUID, in a query
 * or a body): the DTO refuses it with a 400 before the handler runs. Should a handler ever get it,
 * any use answers the 404 "workspace not found" a non-member gets. Not thrown here: the parameters
 * are resolved together with the DTO's validation, and the 400 must win.
 */
const UNCHECKED: WorkspaceScope = Object.freeze({
  get workspaceId(): string {
    throw notFound('workspace');
  },
  get developerId(): string {
    throw notFound('workspace');
  },
  get role(): WorkspaceRole {
    throw notFound('workspace');
  },
  get developer(): DeveloperPrincipal {
    throw notFound('workspace');
  },
});

const checkedScope = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): WorkspaceScope => ctx.switchToHttp().getRequest<ScopedRequest>().workspaceScope ?? UNCHECKED,
);

/**
 * `@WorkspaceScoped('param', 'id') scope: WorkspaceScope` — the route acts in the workspace its
 * request names (`source` field `name`); WorkspaceMemberGuard checks, before the handler runs, that
 * the developer is a member, and the parameter receives the proof. A developer who is not a member
 * gets the 404 `not_found` "workspace not found" the routes document (never a 403 across tenants).
 * An id in a query or a body that is not a UUID is left to the DTO's validation (400).
 */
export function WorkspaceScoped(source: IdSource, name: string): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new Error('@WorkspaceScoped() goes on a route handler parameter');
    const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
    Reflect.defineMetadata(WORKSPACE_ID_AT, { source, name } satisfies IdLocation, descriptor.value as object);
    // A path parameter is documented as @Param(name) documented it; a query or body field by its DTO.
    if (source === 'param') ApiParam({ name, type: String })(target, key, descriptor);
    checkedScope()(target, key, index);
  };
}

/** The workspace the request body names in `workspace_id`: the route that makes something in it. */
export const WorkspaceInBody = () => WorkspaceScoped('body', 'workspace_id');

/** The workspace the query names in `workspace_id`: the route that reads or lists what it holds. */
export const WorkspaceInQuery = () => WorkspaceScoped('query', 'workspace_id');

/** An owner-only action: 403 for a member who is not an owner. */
export function assertOwner(scope: WorkspaceScope): void {
  if (scope.role !== 'owner') throw new DomainError(COMMON_ERRORS.forbidden, 'Only an owner of the workspace can do this');
}

/**
 * Global, after authentication: on a route with @WorkspaceScoped, the workspace the request names
 * must be one the developer belongs to. One primary-key read (WorkspaceMembership).
 */
@Injectable()
export class WorkspaceMemberGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly membership: WorkspaceMembership,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const at = this.reflector.get<IdLocation | undefined>(WORKSPACE_ID_AT, context.getHandler());
    if (!at) return true;
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const fields = (at.source === 'param' ? request.params : request[at.source]) as Record<string, unknown> | undefined;
    const workspaceId = fields?.[at.name];
    if (!isUuid(workspaceId)) {
      if (at.source === 'param') throw notFound('workspace');
      return true;
    }
    const principal = request.user;
    if (principal?.kind !== 'developer') throw notFound('workspace');
    const role = await this.membership.roleOf(principal.developerId, workspaceId);
    if (!role) throw notFound('workspace');
    request.workspaceScope = { workspaceId, developerId: principal.developerId, role, developer: principal };
    return true;
  }
}
