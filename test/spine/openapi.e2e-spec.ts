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
