import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../clients/typescript/openapi';
import { networkProblem, retryAfterSeconds, toProblem, type Problem } from './logic/problem';

export type Schemas = components['schemas'];

/** A failed API call, carrying the server's explanation. */
export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

let csrfToken: string | undefined;
let onSessionExpired: (() => void) | undefined;

/** The CSRF token of the login answer; after a reload, the readable csrftoken cookie. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

function csrfFromCookie(): string | undefined {
  const entry = document.cookie.split(';').find((part) => part.trim().startsWith('csrftoken='));
  return entry ? decodeURIComponent(entry.trim().slice('csrftoken='.length)) : undefined;
}

/** Called when a signed-in request is answered 401: the session ended. */
export function whenSessionExpires(handler: () => void): void {
  onSessionExpired = handler;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const session: Middleware = {
  onRequest({ request }) {
    if (UNSAFE.has(request.method)) {
      const token = csrfToken ?? csrfFromCookie();
      if (token) request.headers.set('X-CSRF-Token', token);
    }
    return request;
  },
  onResponse({ request, response }) {
    const path = new URL(request.url).pathname;
    if (response.status === 401 && !path.startsWith('/developer/auth/') && path !== '/developer/me/') onSessionExpired?.();
    return response;
  },
};

/** The typed client of the service's API (clients/typescript/openapi.d.ts), same origin, session cookie. */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(session);

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; throws ApiProblem with the server's message otherwise. */
export async function call<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch {
    throw new ApiProblem(networkProblem());
  }
  if (!answer.response.ok) {
    const retryAfter = retryAfterSeconds(answer.response.headers.get('Retry-After'));
    throw new ApiProblem({
      ...toProblem(answer.response.status, answer.error),
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    });
  }
  return answer.data as T;
}

export function problemOf(error: unknown): Problem {
  if (error instanceof ApiProblem) return error.problem;
  return { status: 0, code: 'client_error', message: error instanceof Error ? error.message : String(error), fields: {} };
}

/** What registering the development test SP answers (a route outside the API description: it exists only outside production). */
export interface TestSpRegistration {
  created: boolean;
  sp: Schemas['SamlServiceProvider'];
  start_url: string;
}

/** Registers the built-in test SP in a workspace (idempotent); the CSRF token and session as the typed client sends them. */
export async function registerTestSp(workspaceId: string): Promise<TestSpRegistration> {
  const token = csrfToken ?? csrfFromCookie();
  return call(
    fetch(`${window.location.origin}/saml/test-sp/register`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', ...(token ? { 'X-CSRF-Token': token } : {}) },
      body: JSON.stringify({ workspace_id: workspaceId }),
    }).then(async (response) => {
      const body: unknown = await response.json().catch(() => undefined);
      return response.ok ? { data: body as TestSpRegistration, response } : { error: body, response };
    }),
  );
}

/** One mail of the development mailbox (a route outside the API description: it exists only outside production). */
export interface DevMail {
  id: string;
  template: string;
  to: string;
  subject: string | null;
  sent_at: string | null;
  codes: string[];
  links: string[];
  text: string | null;
  file_name: string;
  missing: boolean;
}

/** The workspace's last mails written to files; a 404 problem where the mailbox does not exist (production, SMTP). */
export async function devMailbox(workspaceId: string): Promise<{ results: DevMail[] }> {
  return call(
    fetch(`${window.location.origin}/developer/dev-mailbox/?workspace_id=${encodeURIComponent(workspaceId)}`, {
      credentials: 'same-origin',
    }).then(async (response) => {
      const body: unknown = await response.json().catch(() => undefined);
      return response.ok ? { data: body as { results: DevMail[] }, response } : { error: body, response };
    }),
  );
}
