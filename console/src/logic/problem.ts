/** An API error as the console shows it: the server's message, and per-field messages for validation errors. */
export interface Problem {
  status: number;
  code: string;
  message: string;
  /** field name → messages (validation_failed). */
  fields: Record<string, string[]>;
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
