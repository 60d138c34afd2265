import { applyDecorators, Body, Delete, Param, Query, type Type } from '@nestjs/common';
import { Doc, type ErrorSpec, NoContentRoute } from '../api-docs/decorators';
import type { NamedSchema } from '../api-docs/response-schema';
import { ApiBody } from '@nestjs/swagger';
import type { ExampleObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  type Answer,
  DeveloperCreate,
  DeveloperList,
  noSuch,
  ReadRoute,
  ReplaceRoute,
  type SuccessBody,
  UpdateRoute,
} from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { WorkspaceQueryDto } from './dto/workspace.dto';
import { type WorkspaceScope, WorkspaceInBody, WorkspaceInQuery } from './workspace-scoped';

/**
 * The collection routes every resource of a workspace has (decision 1032): create it in the workspace
 * its body names, list the workspace's, show, update and delete one by id. One function writes the
 * handlers and their decorator stacks; a controller says which of the five it serves, with its own
 * documentation, schemas and errors, and adds the routes only it has below. Each call makes a class of
 * its own, so each controller's routes carry its own OpenAPI metadata. No interceptor, no pipe: a route
 * costs what the hand-written handler cost.
 */

/** The summary (a short imperative line) and the description of a route, as `Doc` takes them. */
export type RouteDoc = readonly [summary: string, description: string];

interface Route {
  doc: RouteDoc;
  /** The success answer's description (or description and example). */
  answer: Answer;
  /** The errors of this resource beyond the standard ones the route derives. */
  errors?: ErrorSpec[];
}

interface RouteWithBody extends Route {
  /** The request body's DTO: validated by the global pipe and documented, as a typed `@Body()` is. */
  body: Type<unknown>;
  /** Named examples of the body, where one example per field does not show its uses. */
  examples?: Record<string, ExampleObject>;
}

export interface WorkspaceResourceRoutesSpec {
  /** The resource's name in the 404 of a missing id: "No such <noun> in a workspace of the caller". */
  noun: string;
  /** The resource as list, show and update answer it. */
  schema: NamedSchema<unknown>;
  /** `POST /`: 201 with what `created` names (the resource with a secret shown once), else `schema`. */
  create?: RouteWithBody & { created?: SuccessBody };
  /** `GET /?workspace_id=`: `{results: [...]}`. */
  list?: Route;
  /** `GET /:id`. */
  get?: Route;
  /** `PATCH /:id` (fields not sent are kept) or `PUT /:id`. */
  update?: RouteWithBody & { verb: 'PATCH' | 'PUT' };
  /** `DELETE /:id`: 204. */
  remove?: Pick<Route, 'doc'>;
}

type Verb = 'create' | 'list' | 'get' | 'update' | 'remove';

/** What the controller's service answers for each route; a service names its methods the same. */
export interface WorkspaceResourceService {
  create(scope: WorkspaceScope, dto: never, meta: RequestMeta): Promise<unknown>;
  list(scope: WorkspaceScope): Promise<unknown[]>;
  get(p: DeveloperPrincipal, id: string): Promise<unknown>;
  update(p: DeveloperPrincipal, id: string, dto: never, meta: RequestMeta): Promise<unknown>;
  remove(p: DeveloperPrincipal, id: string, meta: RequestMeta): Promise<void>;
}

const documented = (doc: RouteDoc, ...route: MethodDecorator[]) => applyDecorators(Doc(...doc), ...route);
const bodyExamples = ({ body, examples }: RouteWithBody) => (examples ? [ApiBody({ type: body, examples })] : []);

function decoratorsOf(spec: WorkspaceResourceRoutesSpec): { [V in Verb]?: MethodDecorator } {
  const { noun, schema, create, list, get, update, remove } = spec;
  const missing = noSuch(noun);
  const updateRoute = update?.verb === 'PUT' ? ReplaceRoute : UpdateRoute;
  return {
    create:
      create &&
      documented(create.doc, ...bodyExamples(create), DeveloperCreate(create.created ?? schema, create.answer, ...(create.errors ?? []))),
    list: list && documented(list.doc, DeveloperList(schema, list.answer)),
    get: get && documented(get.doc, ReadRoute(':id', schema, get.answer, missing, ...(get.errors ?? []))),
    update:
      update &&
      documented(update.doc, ...bodyExamples(update), updateRoute(':id', schema, update.answer, missing, ...(update.errors ?? []))),
    remove: remove && documented(remove.doc, NoContentRoute(Delete(':id'), 'Deleted', missing)),
  };
}

/** The DTO of a route's body, where a typed `@Body()` parameter would have put it (the pipe and Swagger read it there). */
function typeTheBody(prototype: object, verb: 'create' | 'update', body: Type<unknown> | undefined): void {
  const types = Reflect.getMetadata('design:paramtypes', prototype, verb) as unknown[];
  const at = verb === 'create' ? 1 : 2;
  Reflect.defineMetadata(
    'design:paramtypes',
    types.map((type, index) => (index === at ? body : type)),
    prototype,
    verb,
  );
}

/**
 * `class XController extends WorkspaceResourceRoutes({ noun, schema, create, list, get, update, remove })`:
 * the routes the spec names, each calling the method of the same name on `resources`, the service the
 * controller's constructor hands in. Routes the spec leaves out do not exist.
 */
export function WorkspaceResourceRoutes<S extends WorkspaceResourceRoutesSpec>(spec: S) {
  abstract class Routes {
    protected abstract readonly resources: Pick<WorkspaceResourceService, Verb & keyof S>;

    private get service(): WorkspaceResourceService {
      return this.resources as WorkspaceResourceService;
    }

    create(@WorkspaceInBody() scope: WorkspaceScope, @Body() dto: never, @ReqMeta() meta: RequestMeta) {
      return this.service.create(scope, dto, meta);
    }

    async list(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: WorkspaceQueryDto) {
      return { results: await this.service.list(scope) };
    }

    get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
      return this.service.get(p, id);
    }

    update(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: never, @ReqMeta() meta: RequestMeta) {
      return this.service.update(p, id, dto, meta);
    }

    remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
      return this.service.remove(p, id, meta);
    }
  }

  const prototype = Routes.prototype as unknown as Record<Verb, unknown>;
  for (const [verb, decorate] of Object.entries(decoratorsOf(spec)) as [Verb, MethodDecorator | undefined][]) {
    if (!decorate) {
      delete prototype[verb];
      continue;
    }
    decorate(prototype, verb, Object.getOwnPropertyDescriptor(prototype, verb)!);
  }
  if (spec.create) typeTheBody(prototype, 'create', spec.create.body);
  if (spec.update) typeTheBody(prototype, 'update', spec.update.body);
  return Routes;
}
