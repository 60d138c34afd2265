import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nest's Express adapter, with one change: the HTTP server builds each request and
 * response directly on Express's prototypes (`app.request`, `app.response`).
 *
 * Express re-parents every request and response with `Object.setPrototypeOf` before
 * routing. V8 then gives each object a hidden class of its own, so every property added
 * afterwards (by Express, body parsing, Passport, Nest) builds a new hidden class, about
 * 5 µs each on this machine, and every inline cache that sees a request goes megamorphic.
 * When the objects are born with that prototype, Express's call changes nothing and all
 * requests share hidden classes (decision 0012).
 */
export class SharedPrototypeExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and connection tracking stay Nest's own (neither is used by this service).
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    const Request = bornWithPrototype(IncomingMessage, app.request);
    const Response = bornWithPrototype(ServerResponse, app.response);
    // A future Node whose http classes are ES classes gets Nest's plain server.
    if (!Request || !Response) return super.initHttpServer(options);
    this.httpServer = createServer({ IncomingMessage: Request, ServerResponse: Response as typeof ServerResponse }, app);
  }
}

/**
 * A constructor that runs `base` on an instance of `prototype` (which must inherit from
 * `base.prototype`), or undefined when `base` is an ES class and cannot be called that way.
 * `base.call(this)` rather than `Reflect.construct(base, args, newTarget)`: V8 gives objects
 * built with a foreign new.target unshared hidden classes, which is the cost this avoids.
 */
export function bornWithPrototype<T extends abstract new (...args: never[]) => object>(base: T, prototype: object): T | undefined {
  if (!(prototype instanceof (base as unknown as new () => object))) throw new TypeError(`prototype does not inherit from ${base.name}`);
  if (/^class\b/.test(Function.prototype.toString.call(base))) return undefined;
  const callable = base as unknown as (this: object, ...args: unknown[]) => void;
  function Constructed(this: object, ...args: unknown[]): void {
    callable.apply(this, args);
  }
  Constructed.prototype = prototype;
  return Constructed as unknown as T;
}
