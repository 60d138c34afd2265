import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AUTH_KIND, AuthKind } from '../../src/common/auth/auth.decorator';

export interface RouteInfo {
  method: string;
  /** Express-style path, e.g. /developer/oauth/clients/:id */
  path: string;
  auth: AuthKind | undefined;
  params: string[];
}

const join = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;

/** Every route the application serves, read from Nest's own metadata (so new endpoints are listed automatically). */
export function listRoutes(app: INestApplication): RouteInfo[] {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const reflector = app.get(Reflector);
  const routes: RouteInfo[] = [];
  for (const wrapper of discovery.getControllers()) {
    const { instance, metatype } = wrapper;
    if (!instance || !metatype) continue;
    const prefixes = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
    const proto = Object.getPrototypeOf(instance) as object;
    for (const name of scanner.getAllMethodNames(proto)) {
      const handler = (proto as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
      const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (methodPaths === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const auth = reflector.getAllAndOverride<AuthKind | undefined>(AUTH_KIND, [handler, metatype]);
      for (const prefix of prefixes) {
        for (const sub of ([] as string[]).concat(methodPaths)) {
          const path = join(prefix, sub);
          routes.push({ method, path, auth, params: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]) });
        }
      }
    }
  }
  return routes;
}
