import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';

/**
 * Requests generated from the OpenAPI document, and answers checked against it (issue 28). Pure:
 * no app, no HTTP; test/security/openapi-fuzz.e2e-spec.ts sends what this builds.
 */

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  nullable?: boolean;
  example?: unknown;
  readOnly?: boolean;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  example?: unknown;
}

interface MediaType {
  schema?: Schema;
}

interface OperationObject {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
}

export type Credential = 'developer' | 'scim' | 'end-user' | 'ssf' | 'public';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  label: string;
  credential: Credential;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The request body's media type and schema, when the operation takes one. */
  body?: { type: string; schema: Schema };
  responses: OperationObject['responses'];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      const credential: Credential = schemes.includes('scim-token')
        ? 'scim'
        : schemes.includes('developer-token')
          ? 'developer'
          : schemes.includes('end-user-token')
            ? 'end-user'
            : schemes.includes('ssf-receiver-token')
              ? 'ssf'
              : 'public';
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      // JSON when the operation takes it (SCIM routes take both), otherwise its one media type.
      const type = Object.keys(content).find((t) => t === 'application/json') ?? Object.keys(content)[0];
      out.push({
        method,
        path,
        label: `${method.toUpperCase()} ${path}`,
        credential,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: type && content[type].schema ? { type, schema: content[type].schema } : undefined,
        responses: op.responses,
      });
    }
  }
  return out;
}

/** Follows $ref and merges allOf, so generators see one object schema. */
export function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(doc, doc.components?.schemas?.[schema.$ref.split('/').pop() ?? '']);
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => resolve(doc, s));
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<string, Schema>,
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  return schema;
}

/** Realistic values for fields a random string would never satisfy (ids of the fixture, unique names, URLs). */
export type Hints = (name: string, schema: Schema) => unknown;

const WORD = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.'),
  minLength: 1,
  maxLength: 24,
});

/** An arbitrary of values the schema describes, with hints for named fields. */
export function validArb(
  doc: OpenApiDocument,
  raw: Schema | undefined,
  hints: Hints,
  name = '',
  depth = 0,
  full = false,
): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  const hinted = hints(name, schema);
  if (hinted !== undefined) return fc.constant(null).map(() => (typeof hinted === 'function' ? (hinted as () => unknown)() : hinted));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum.filter((v) => v !== null));
  if (schema.oneOf?.length || schema.anyOf?.length) {
    return fc.oneof(...(schema.oneOf ?? schema.anyOf ?? []).map((s) => validArb(doc, s, hints, name, depth + 1)));
  }
  switch (schema.type ?? (schema.properties ? 'object' : 'string')) {
    case 'integer': {
      const min = schema.minimum ?? 0;
      return fc.integer({ min, max: Math.min(schema.maximum ?? min + 100, min + 100) });
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 100, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const min = schema.minItems ?? 0;
      return fc.array(validArb(doc, schema.items, hints, name, depth + 1), {
        minLength: min,
        maxLength: Math.max(min, Math.min(schema.maxItems ?? 2, 2)),
      });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const props = Object.entries(schema.properties ?? {}).filter(([, p]) => !resolve(doc, p).readOnly);
      if (props.length === 0 && typeof schema.additionalProperties === 'object') {
        return fc.dictionary(WORD, validArb(doc, schema.additionalProperties, hints, name, depth + 1), { maxKeys: 2 });
      }
      const required = new Set(schema.required ?? []);
      return fc.record(Object.fromEntries(props.map(([key, p]) => [key, validArb(doc, p, hints, key, depth + 1)])), {
        requiredKeys: props.map(([key]) => key).filter((key) => full || required.has(key)),
      });
    }
    default:
      return stringArb(schema);
  }
}

function stringArb(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'email':
      return fc.constant(null).map(() => `fuzz-${randomUUID().slice(0, 12)}@example.test`);
    case 'uuid':
      return fc.uuid();
    case 'uri':
      return fc.constant('https://app.example.test/callback');
    case 'date-time':
      return fc.integer({ min: 1, max: 365 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString());
    default:
      break;
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  const min = Math.max(schema.minLength ?? 1, 1);
  const max = Math.max(min, Math.min(schema.maxLength ?? 24, 24));
  return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 -_'), minLength: min, maxLength: max });
}

/** Numbers at and past every boundary a JSON number or a database column has. */
export const HOSTILE_NUMBERS: unknown[] = [-1, 0, 1.5, -0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e308, -1e308];
/** The same, as text in a URL, plus what Number() reads and an integer parser must not. */
export const HOSTILE_QUERY_VALUES = [
  '',
  '-1',
  '0',
  '1.5',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '1e309',
  '0x10',
  ' 1',
  'NaN',
  'Infinity',
  '9'.repeat(60),
  'x'.repeat(5000),
  'a\u0000b',
  '\u00e9\u{1F600}',
  '00000000-0000-0000-0000-000000000000',
  "'; DROP TABLE workspaces; --",
];
const UNSTORABLE = ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00y'];

/** A wrong value for a field of this schema: null, another type, a bound crossed, a huge or unstorable text. */
export function hostileArb(doc: OpenApiDocument, raw: Schema | undefined): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  const bounds: unknown[] = [];
  if (schema.maxLength !== undefined) bounds.push('x'.repeat(schema.maxLength + 1));
  if (schema.minLength) bounds.push('x'.repeat(schema.minLength - 1));
  if (schema.maximum !== undefined) bounds.push(schema.maximum + 1);
  if (schema.minimum !== undefined) bounds.push(schema.minimum - 1);
  if (schema.maxItems !== undefined) bounds.push(Array.from({ length: schema.maxItems + 1 }, () => 'x'));
  return fc.oneof(
    fc.constant(null),
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.constantFrom(true, false, {}, [], [null], { nested: { deeper: 1 } }, '', 'true', '1', ' '),
    fc.constantFrom(...UNSTORABLE),
    fc.constantFrom('x'.repeat(70_000), '\u{1F600}'.repeat(3000), 'é'.repeat(5000)),
    fc.string({ unit: 'binary', maxLength: 40 }),
    ...(bounds.length ? [fc.constantFrom(...bounds)] : []),
  );
}

/** Paths to the values of a JSON value (object keys and array indices), the root excluded. */
export function fieldPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...path, i], ...fieldPaths(v, [...path, i])]);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [[...path, k], ...fieldPaths(v, [...path, k])]);
  }
  return [];
}

export function setAt(root: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = value;
  }
  return copy;
}

/** The schema of the value at a path of a body of this schema (for a field-specific hostile value). */
export function schemaAt(doc: OpenApiDocument, raw: Schema, path: (string | number)[]): Schema | undefined {
  let schema: Schema | undefined = resolve(doc, raw);
  for (const step of path) {
    if (!schema) return undefined;
    schema =
      typeof step === 'number'
        ? resolve(doc, schema.items)
        : resolve(
            doc,
            schema.properties?.[step] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined),
          );
  }
  return schema;
}

/** Why a query value is outside its parameter's schema (as text in a URL), if it is. */
export function queryProblem(schema: Schema, value: string | string[]): string | undefined {
  if (Array.isArray(value)) return schema.type === 'array' ? undefined : 'sent more than once';
  if (schema.enum && !schema.enum.includes(value)) return 'not in its enum';
  if (schema.type === 'integer') {
    if (!/^-?\d+$/.test(value)) return 'not an integer';
    const n = BigInt(value);
    if (schema.minimum !== undefined && n < BigInt(schema.minimum)) return 'below its minimum';
    if (schema.maximum !== undefined && n > BigInt(schema.maximum)) return 'above its maximum';
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return 'longer than its maxLength';
  if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return 'not a uuid';
  return undefined;
}

/** Validates answers against the document's response schemas (OpenAPI 3.0: nullable, formats). */
export class ResponseChecker {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<Schema, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ components: doc.components ?? {} }, 'openapi');
  }

  /** Problems of the body against the schema, or [] when it matches. */
  check(schema: Schema, body: unknown): string[] {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(rebase(schema) as object);
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  }
}

/** Inline schemas point at '#/components/…' of the document; compiled alone they point at the 'openapi' schema. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rebase(v)]),
    );
  }
  return value;
}
