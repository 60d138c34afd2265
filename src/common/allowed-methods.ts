import type { Request } from 'express';

interface RouteLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  matchers?: ((path: string) => unknown)[];
}

/** A route of the Express router that takes the request's path: the path it was registered with, its methods. */
export interface MatchingRoute {
  path: string;
  methods: string[];
}

/**
 * The routes of the Express router's own route table (every Nest route is one of its layers)
 * whose path matches the request's path, whatever their method.
 */
export function matchingRoutes(req: Request): MatchingRoute[] {
  const router: unknown = (req.app as { router?: unknown } | undefined)?.router;
  // The router is a function object (router 2.x) carrying its layers on `stack`.
  const stack: unknown =
    typeof router === 'function' || (typeof router === 'object' && router !== null) ? (router as { stack?: unknown }).stack : undefined;
  if (!Array.isArray(stack)) return [];
  const found: MatchingRoute[] = [];
  for (const layer of stack as RouteLayer[]) {
    if (!layer.route?.methods || !layer.matchers?.some((match) => matches(match, req.path))) continue;
    const methods = Object.entries(layer.route.methods).flatMap(([method, on]) => (on && method !== '_all' ? [method.toUpperCase()] : []));
    found.push({ path: String(layer.route.path), methods });
  }
  return found;
}

/**
 * The methods the application serves on the request's path, read from the router, so the
 * answer cannot drift from the routes. HEAD comes with GET (Express answers HEAD with the GET
 * handler). Empty when no route matches the path at all (a real 404).
 */
export function allowedMethods(req: Request): string[] {
  const methods = new Set(matchingRoutes(req).flatMap((route) => route.methods));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

function matches(match: (path: string) => unknown, path: string): boolean {
  try {
    return match(path) !== false;
  } catch {
    return false; // a malformed %-escape in a parameter: this route cannot take the path
  }
}
