/** A small JSON client for the service under test, used by scenario setups (not under load). */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ApiCall {
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses that count as success; anything else throws with the response body. */
  expect?: number[];
}

export class ApiClient {
  constructor(readonly baseUrl: string) {}

  get<T = unknown>(path: string, call: ApiCall = {}): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, call);
  }

  post<T = unknown>(path: string, call: ApiCall = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, call);
  }

  async request<T = unknown>(method: string, path: string, call: ApiCall = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    const parsed = parseBody(text, res.headers.get('content-type'));
    const expected = call.expect ?? [200, 201, 202, 204];
    if (!expected.includes(res.status)) {
      throw new Error(`${method} ${path} answered ${res.status} (expected ${expected.join('/')}): ${text.slice(0, 500)}`);
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }
}

function parseBody(text: string, contentType: string | null): unknown {
  if (!text) return null;
  if (contentType && /json/.test(contentType)) return JSON.parse(text);
  return text;
}
