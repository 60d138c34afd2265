import type { Scenario } from '../lib/types';

/**
 * Liveness through the whole request pipeline (request id, helmet, cookie and body
 * parsers, pino-http, the default-deny guard resolving @Auth('public'), validation
 * pipe and exception filter in place) compared with a bare NestJS handler: what our
 * middleware costs per request.
 */
export const scenarios: Scenario<void>[] = [
  {
    name: 'health-live',
    area: 'spine',
    title: '`GET /health/live` through the full middleware stack (probe path: request line not logged)',
    baseline: 'hello',
    targets: { minThroughputRatio: 0.8 },
    setup: async () => undefined,
    requests: [{ path: '/health/live' }],
  },
  {
    // logging.ts skips the line for exactly '/health/live'; a query string makes pino-http
    // write it, which shows what one JSON request log line costs.
    name: 'health-live-logged',
    area: 'spine',
    title: '`GET /health/live?probe=bench` — same route, request line logged (JSON to a file)',
    baseline: 'hello',
    targets: { minThroughputRatio: 0.8 },
    setup: async () => undefined,
    requests: [{ path: '/health/live?probe=bench' }],
  },
];
