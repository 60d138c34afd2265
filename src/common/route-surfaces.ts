import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { matchingRoutes } from './allowed-methods';
import { ERROR_SURFACE, ErrorSurface, OWNS_PATHS_BELOW_ITS_MOUNT } from './error-surface';

interface Mount {
  segments: string[];
  surface: ErrorSurface;
}

interface Table {
  /** Surface by registered route path (as the Express router holds it), then by method. */
  routes: Map<string, Map<string, ErrorSurface>>;
  /** Controllers whose surface owns the paths below their mount, deepest first. */
  mounts: Mount[];
  /** Surface by OpenAPI operation id (`Controller_method`, @nestjs/swagger's default). */
  operations: Map<string, ErrorSurface>;
}

/**
 * Each route's error surface, read from the controllers' metadata (decision 0160). A routed error
 * never needs it: the controller's own filter (bound by its surface decorator) answers it. It serves
 * the errors raised before a handler is chosen (body parser, URL guard, no route for the method or
 * path) and the OpenAPI document, which lists each route's shared errors in its format.
 */
@Injectable()
export class RouteSurfaces {
  private table?: Table;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly scanner: MetadataScanner,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * A request no handler took: the surface of the route its path reaches (the one for its method
   * first); else of the controller whose surface owns the paths below its mount; else JSON.
   */
  forUnroutedRequest(req: Request): ErrorSurface {
    const { routes, mounts } = this.lookup();
    const matching = matchingRoutes(req).flatMap((route) => [...(routes.get(route.path) ?? new Map<string, ErrorSurface>())]);
    const surface = (matching.find(([method]) => method === req.method) ?? matching[0])?.[1];
    if (surface) return surface;
    const segments = pathSegments(req.path ?? '');
    return mounts.find((mount) => mount.segments.every((segment, i) => segments[i] === segment))?.surface ?? 'json';
  }

  /** The surface of an OpenAPI operation (`Controller_method`); JSON for one it does not know. */
  forOperation(operationId: string | undefined): ErrorSurface {
    return (operationId && this.lookup().operations.get(operationId)) || 'json';
  }

  private lookup(): Table {
    this.table ??= this.build();
    return this.table;
  }

  private build(): Table {
    const table: Table = { routes: new Map(), mounts: [], operations: new Map() };
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!type?.prototype) continue;
      const classSurface = this.reflector.get<ErrorSurface | undefined>(ERROR_SURFACE, type) ?? 'json';
      const mounts = asList(Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined);
      if (OWNS_PATHS_BELOW_ITS_MOUNT.has(classSurface)) {
        for (const mount of mounts) table.mounts.push({ segments: pathSegments(mount), surface: classSurface });
      }
      for (const name of this.scanner.getAllMethodNames(type.prototype)) {
        const handler = (type.prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (paths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const surface = this.reflector.getAllAndOverride<ErrorSurface | undefined>(ERROR_SURFACE, [handler, type]) ?? 'json';
        table.operations.set(`${type.name}_${name}`, surface);
        for (const mount of mounts) {
          for (const path of asList(paths)) {
            const registered = this.registeredPath(routePath(mount, path));
            const byMethod = table.routes.get(registered) ?? new Map<string, ErrorSurface>();
            byMethod.set(method, surface);
            table.routes.set(registered, byMethod);
          }
        }
      }
    }
    table.mounts.sort((a, b) => b.segments.length - a.segments.length);
    return table;
  }

  /** The path as the router holds it: Nest hands each route path to the adapter's normalizePath first. */
  private registeredPath(path: string): string {
    const adapter = this.adapterHost.httpAdapter as { normalizePath?: (path: string) => string } | undefined;
    return adapter?.normalizePath ? adapter.normalizePath(path) : path;
  }
}

function asList(paths: string | string[] | undefined): string[] {
  if (paths === undefined) return [''];
  return Array.isArray(paths) ? paths : [paths];
}

/** Nest's own joining (RoutePathFactory): one leading slash, no trailing one, `/` for the root. */
function routePath(mount: string, path: string): string {
  let joined = '';
  for (const fragment of [mount, path]) if (fragment) joined = stripEndSlash(joined) + addLeadingSlash(fragment);
  joined = addLeadingSlash(joined || '/');
  return joined === '/' ? joined : stripEndSlash(joined);
}

const addLeadingSlash = (path: string) => (path.charAt(0) === '/' ? path : `/${path}`);
const stripEndSlash = (path: string) => (path.endsWith('/') ? path.slice(0, -1) : path);

/** Express matches paths case-insensitively, so mounts are compared the same way. */
function pathSegments(path: string): string[] {
  return path
    .toLowerCase()
    .split('/')
    .filter((segment) => segment !== '');
}
