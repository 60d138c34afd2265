import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/app';

interface Schema {
  $ref?: string;
  example?: unknown;
  enum?: unknown[];
  allOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
}
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string }>;
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, { bearerFormat?: string; description?: string }> };
}

const root = join(__dirname, '../..');
const committed = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')) as Document;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(committed.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ path, method, op })),
);

/** Protocol operations whose 200 is empty by their specification. */
const EMPTY_200 = new Set([
  // SSF 1.0 §8.1.3.2: "an empty HTTP 200 OK response" to adding a subject.
  'post /ssf/subjects/add',
]);

describe('OpenAPI description', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('serves the committed openapi.json unchanged (run `npm run openapi:write` after changing routes)', async () => {
    const served = await t.http().get('/openapi.json').expect(200);
    expect(served.body).toEqual(committed);
  });

  it('serves the interactive docs at /docs', async () => {
    const res = await t.http().get('/docs').redirects(1).expect(200);
    expect(res.text).toContain('swagger');
  });

  it("passes Redocly's linter (recommended rules, examples checked against schemas) and the typed client has not drifted", () => {
    const run = spawnSync(process.execPath, [join(root, 'scripts/openapi-check.mjs')], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(`${run.stdout}${run.stderr}`).toContain('openapi-check: 0 errors');
    expect(run.status).toBe(0);
  });

  it('gives every operation a summary and a description, and every 2xx with a body a schema', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operations) {
      if (!op.summary?.trim()) missing.push(`${method} ${path}: summary`);
      if (!op.description?.trim()) missing.push(`${method} ${path}: description`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^2\d\d$/.test(status) || status === '204' || EMPTY_200.has(`${method} ${path}`)) continue;
        const media = Object.values(response.content ?? {});
        if (media.length === 0 || media.some((m) => m.schema === undefined)) missing.push(`${method} ${path}: ${status} schema`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('shows an example of every request body and every JSON success body', () => {
    const resolve = (schema: Schema): Schema => (schema.$ref ? committed.components.schemas[schema.$ref.split('/').pop()!] : schema);
    // An example of the whole body, or one on every plain property (nested schemas are checked where they are named).
    const exemplified = (schema: Schema | undefined): boolean => {
      if (!schema) return false;
      const s = resolve(schema);
      if (s.example !== undefined) return true;
      if (s.allOf) return s.allOf.every(exemplified);
      // A full or a projected (partial) SCIM resource: each alternative is shown where it is named.
      if (s.anyOf) return s.anyOf.every(exemplified);
      if (s.items) return exemplified(s.items);
      const plain = Object.values(s.properties ?? {}).filter(
        (p) => !p.$ref && !p.allOf && !p.items?.$ref && !p.items?.anyOf && !p.properties,
      );
      return s.properties !== undefined && plain.every((p) => p.example !== undefined || p.enum !== undefined);
    };
    const shown = (media: Media) => media.example !== undefined || media.examples !== undefined || exemplified(media.schema);
    const missing: string[] = [];
    for (const { path, method, op } of operations) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        if (type.includes('json') && !shown(media)) missing.push(`${method} ${path}: request ${type}`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (status.startsWith('2') && type.includes('json') && !shown(media)) missing.push(`${method} ${path}: ${status} ${type}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares what the OAuth and OpenID browser endpoints read (authorize, consent, UserInfo, logout), so a schema-driven fuzzer reaches them', () => {
    const query = (path: string) =>
      new Set((committed.paths[path].get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
    const form = (path: string) =>
      new Set(Object.keys(committed.paths[path].post.requestBody?.content['application/x-www-form-urlencoded']?.schema?.properties ?? {}));
    // OpenID Connect Core §3.1.2.1 (with RFC 7636's PKCE), the consent form's own fields, RP-Initiated Logout 1.0 §2.
    const authorization = [
      'response_type',
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'nonce',
      'code_challenge',
      'code_challenge_method',
    ];
    const optional = ['response_mode', 'prompt', 'max_age', 'login_hint', 'id_token_hint', 'acr_values', 'ui_locales'];
    const logout = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'];
    const undeclared = (declared: Set<string>, read: string[]) => read.filter((name) => !declared.has(name));
    expect({
      'GET /oauth/authorize': undeclared(query('/oauth/authorize'), [...authorization, ...optional]),
      'POST /oauth/authorize': undeclared(form('/oauth/authorize'), [...authorization, ...optional]),
      'POST /oauth/authorize/consent': undeclared(form('/oauth/authorize/consent'), [...authorization, 'decision', 'csrf_token']),
      'POST /oauth/userinfo': undeclared(form('/oauth/userinfo'), ['access_token']),
      'GET /oauth/logout': undeclared(query('/oauth/logout'), logout),
      'POST /oauth/logout': undeclared(form('/oauth/logout'), logout),
    }).toEqual({
      'GET /oauth/authorize': [],
      'POST /oauth/authorize': [],
      'POST /oauth/authorize/consent': [],
      'POST /oauth/userinfo': [],
      'GET /oauth/logout': [],
      'POST /oauth/logout': [],
    });
    // UserInfo's bearer token (RFC 6750 §2.1) is a security scheme, so a fuzzer sends one.
    for (const method of ['get', 'post']) {
      expect(committed.paths['/oauth/userinfo'][method].security?.flatMap((s) => Object.keys(s))).toContain('application-access-token');
    }
  });

  it('documents no 405 stub and describes every token as an opaque bearer token, never a JWT', () => {
    expect(operations.filter(({ op }) => Object.keys(op.responses).includes('405'))).toEqual([]);
    for (const scheme of Object.values(committed.components.securitySchemes)) {
      expect(scheme.bearerFormat).toBeUndefined();
      expect(scheme.description ?? '').not.toMatch(/jwt/i);
    }
  });

  it('documents every path as it is served: each operation is routed (no 404 "No route", no 405), with and without the slash', async () => {
    const unrouted: string[] = [];
    for (const { path, method } of operations) {
      const concrete = path.replace(/\{name\}/g, 'User').replace(/\{[^}]+\}/g, randomUUID());
      for (const url of new Set([concrete, concrete.replace(/\/$/, '')])) {
        const res = await t.http()[method as 'get'](url).redirects(0);
        const text = `${res.text ?? ''}`;
        if (res.status === 405 || (res.status === 404 && text.includes('No route for'))) unrouted.push(`${method} ${url} → ${res.status}`);
      }
    }
    expect(unrouted).toEqual([]);
    expect(operations.length).toBeGreaterThan(70);
  });
});
