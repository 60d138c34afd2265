/** An API error as the console shows it: the server's message, and per-field messages for validation errors. */
export interface Problem {
  status: number;
  code: string;
  message: string;
  /** field name → messages (validation_failed). */
  fields: Record<string, string[]>;
  /** The pause the service asked for before a retry (its Retry-After header, in seconds), when it named one. */
  retryAfterSeconds?: number;
}

/** Turns an error answer (JSON `{error, message, details?}`, SCIM's `{detail}`, or anything else) into a Problem. */
export function toProblem(status: number, body: unknown): Problem {
  const fields: Record<string, string[]> = {};
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const details = b.details;
    if (details && typeof details === 'object' && !Array.isArray(details)) {
      for (const [field, value] of Object.entries(details as Record<string, unknown>)) {
        const list = Array.isArray(value)
          ? value.filter((v): v is string => typeof v === 'string')
          : typeof value === 'string'
            ? [value]
            : [];
        if (list.length > 0) fields[field] = list;
      }
    }
    const message = typeof b.message === 'string' ? b.message : typeof b.detail === 'string' ? b.detail : undefined;
    const code = typeof b.error === 'string' ? b.error : `http_${status}`;
    if (message) return { status, code, message, fields };
    return { status, code, message: fallbackMessage(status), fields };
  }
  return { status, code: `http_${status}`, message: fallbackMessage(status), fields };
}

/** Retry-After in seconds (RFC 9110 §10.2.3: delay-seconds; an HTTP date is ignored here), or undefined. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/** The longest pause the console makes before retrying a load on its own: a longer Retry-After is left to the person. */
export const AUTOMATIC_RETRY_CEILING_MS = 5_000;
const AUTOMATIC_RETRY_DEFAULT_MS = 1_000;

/**
 * How long to wait before loading again after `problem`, or null when loading again cannot help. Only a
 * transient failure is worth an automatic retry: no answer at all, 429 (too many requests), 502/503/504 (the
 * service or its database busy or away for a moment), and only when the service asked for no longer a pause than
 * the ceiling (Retry-After). Decision 0940.
 */
export function automaticRetryDelayMs(problem: Problem): number | null {
  const transient = problem.code === 'network_error' || problem.status === 429 || [502, 503, 504].includes(problem.status);
  if (!transient) return null;
  const asked = problem.retryAfterSeconds === undefined ? AUTOMATIC_RETRY_DEFAULT_MS : problem.retryAfterSeconds * 1000;
  return asked <= AUTOMATIC_RETRY_CEILING_MS ? asked : null;
}

export function networkProblem(): Problem {
  return {
    status: 0,
    code: 'network_error',
    message: 'The service could not be reached. Check your connection and try again.',
    fields: {},
  };
}

function fallbackMessage(status: number): string {
  if (status === 401) return 'You are signed out. Sign in again.';
  if (status === 403) return 'You are not allowed to do this.';
  if (status === 404) return 'Not found: it may have been deleted.';
  if (status === 429) return 'Too many requests: wait a moment and try again.';
  if (status >= 500) return `The service failed (HTTP ${status}). Try again later.`;
  return `The request was refused (HTTP ${status}).`;
}

/** The messages of one field, also when the server names a nested path (`attribute_mapping.email`). */
export function fieldMessages(problem: Problem | undefined, field: string): string[] {
  if (!problem) return [];
  return Object.entries(problem.fields)
    .filter(([name]) => name === field || name.startsWith(`${field}.`) || name.startsWith(`${field}[`))
    .flatMap(([, messages]) => messages);
}
