import type { CorsOptions, CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { Request } from 'express';
import { parseOrigins } from '../config/origins';

/** The dashboard API: the only routes a browser on another origin may call with credentials. */
const DASHBOARD_PATHS = /^\/(?:e\/v1\/)?developer(?:\/|$)/;

/**
 * CORS for a dashboard served from its own origin: credentials (the session cookie) allowed,
 * but only for the listed origins and only on the developer API. Other origins and other
 * routes get no CORS header at all. The allowed origin is echoed, never `*`.
 * Returns undefined when no origin is listed (CORS stays off).
 */
export function dashboardCors(list: string | undefined): CorsOptionsDelegate<Request> | undefined {
  const allowed = new Set(parseOrigins(list));
  if (allowed.size === 0) return undefined;
  const on: CorsOptions = {
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin.toLowerCase())),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-CSRF-Token', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'Location'],
    maxAge: 600,
  };
  const off: CorsOptions = { origin: false };
  return (req, cb) => cb(null, DASHBOARD_PATHS.test(req.path) ? on : off);
}
