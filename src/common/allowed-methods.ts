import type { Request } from 'express';

interface RouteLayer {
  route?: { methods?: Record<string, boolean> };
  matchers?: ((path: string) => unknown)[];
}

/**
 * The methods the application serves on the request's path, read from the Express router's
 * own route table (every Nest route is one of its layers), so the answer cannot drift from
 * the routes. HEAD comes with GET (Express answers HEAD with the GET handler). Empty when no
 * route matches the path at all (a real 404).
 */
export function allowedMethods(req: Request): string[] {
  const router: unknown = (req.app as { router?: unknown } | undefined)?.router;
  // The router is a function object (router 2.x) carrying its layers on `stack`.
  const stack: unknown =
    typeof router === 'function' || (typeof router === 'object' && router !== null) ? (router as { stack?: unknown }).stack : undefined;
  if (!Array.isArray(stack)) return [];
  const methods = new Set<string>();
  for (const layer of stack as RouteLayer[]) {
    if (!layer.route?.methods || !layer.matchers?.some((match) => matches(match, req.path))) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') methods.add(method.toUpperCase());
    }
  }
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
