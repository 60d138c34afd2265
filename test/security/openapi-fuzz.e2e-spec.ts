import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, anOAuthClient, aWorkspace, TestDeveloper, TestOAuthClient, TestWorkspace } from '../support/factories';
import {
  fieldPaths,
  HOSTILE_QUERY_VALUES,
  hostileArb,
  Hints,
  OpenApiDocument,
  Operation,
  operationsOf,
  queryProblem,
  resolve,
  ResponseChecker,
  schemaAt,
  setAt,
  validArb,
} from '../support/openapi-fuzz';
import { samlEnv } from '../saml/support/saml-env';
import { aScimToken } from '../scim/scim-support';
import { aReceiver } from '../shared-signals/ssf-support';
import { anEndUser, logIn, TestEndUser } from '../end-users/support';

/**
 * Schema-driven fuzzing (issue 28): every operation of the served OpenAPI document gets requests
 * generated from its own description — valid ones, and ones with null in each field, wrong types,
 * boundary and huge numbers, long and unstorable strings, missing and extra fields, hostile query
 * and path values — sent with real credentials (dashboard routes alternate between a developer token and the
 * session cookie with its CSRF header). Every answer must be below 500, have a status the
 * document lists for the operation, and a body matching the document's schema for that status.
 *
 * Seeded (FUZZ_SEED, default 28) so a CI failure replays; FUZZ_RUNS random cases per operation
 * (default 12, `npm run test:long` sets 200) on top of the systematic cases. Operations added later
 * are covered as soon as they are in the document.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 28);
/** To replay a finding: FUZZ_ONLY='PATCH /developer/webhooks' runs only matching operations, FUZZ_TRACE=1 prints every exchange. */
const ONLY = process.env.FUZZ_ONLY;
const TRACE = process.env.FUZZ_TRACE === '1';

interface Case {
  note: string;
  /** Replaces the fixture's value of one path parameter. */
  path?: { index: number; value: string };
  query: Record<string, string | string[]>;
  body?: unknown;
}

interface Finding {
  operation: string;
  problem: string;
  request: string;
  answer: string;
}

const JSONISH = /[/+]json$/;
const SCIM_SCHEMAS: Record<string, string> = {
  ScimUserInput: 'urn:ietf:params:scim:schemas:core:2.0:User',
  ScimGroupInput: 'urn:ietf:params:scim:schemas:core:2.0:Group',
};

describe('requests generated from the OpenAPI document, for every operation', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let operations: Operation[];
  let checker: ResponseChecker;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  let client: TestOAuthClient;
  let scimToken: string;
  let endUser: TestEndUser;
  let endUserToken: string;
  let receiverAuth: { Authorization: string };
  let session: { sid: string; csrf: string };
  let sent = 0;
  const findings = new Map<string, Finding>();
  const fixtureIds = new Map<string, string>();
  /** Operations that answered at least one generated request with a success: the rest only ever saw refusals. */
  const succeeded = new Set<string>();

  beforeAll(async () => {
    // Webhook targets on loopback, so a generated webhook can be created (and then read, patched, deleted).
    t = await createTestApp(samlEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }));
    doc = (await t.http().get('/openapi.json').expect(200)).body as OpenApiDocument;
    operations = operationsOf(doc);
    checker = new ResponseChecker(doc);
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
    client = await anOAuthClient(t, dev, ws);
    scimToken = (await aScimToken(t, dev, ws)).token;
    endUser = await anEndUser(t, client);
    endUserToken = (await logIn(t, endUser)).access_token;
    receiverAuth = (await aReceiver(t, dev, ws)).auth;
    session = await developerSession();
  });

  /** The developer's dashboard session: the sid cookie and the CSRF token cookie-authenticated writes must send. */
  async function developerSession(): Promise<{ sid: string; csrf: string }> {
    const login = await t.http().post('/developer/auth/login/').send({ email: dev.email, password: dev.password }).expect(200);
    const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
    const sid = cookies.map((c) => c.split(';')[0]).find((c) => c.startsWith('sid='));
    return { sid: sid?.slice('sid='.length) ?? '', csrf: login.body.csrf_token as string };
  }

  afterAll(async () => {
    const never = (operations ?? []).filter((op) => !succeeded.has(op.label)).map((op) => op.label);
    process.stdout.write(
      `openapi fuzz: ${sent} generated requests over ${operations?.length ?? 0} operations (seed ${SEED}, runs ${RUNS}); ` +
        `${never.length} never answered a success: ${never.join(', ')}\n`,
    );
    await t?.close();
  });

  /** Values random text would never satisfy: the fixture's ids, unique names, URLs the service accepts. */
  const hints: Hints = (name, schema) => {
    const unique = () => randomUUID().slice(0, 12);
    switch (name) {
      case 'workspace_id':
        return ws.id;
      case 'client_id':
        return client.client_id;
      case 'userName':
      case 'email':
        return () => `fuzz-${unique()}@example.test`;
      case 'password':
      case 'new_password':
        return 'pw-correct-horse-1';
      // Never the end user's real password: a change would lock the fixture's own credential out.
      case 'current_password':
        return 'pw-not-the-password';
      case 'redirect_uris':
        return ['https://app.example.test/callback'];
      case 'acs_url':
        return 'https://sp.example.test/acs';
      case 'sp_entity_id':
        return () => `https://sp-${unique()}.example.test`;
      case 'url':
        return 'http://127.0.0.1:9/hook';
      case 'attribute_mapping':
        return { email: 'email' };
      case 'name_id_attribute':
        return 'email';
      case 'name_id_format':
        return schema.enum?.[0];
      case 'metadata_xml':
      case 'sp_cert_pem':
        return null;
      case 'default_relay_state':
        return 'https://app.example.test/home';
      case 'filter':
        return `userName eq "fuzz-${randomUUID().slice(0, 8)}@example.test"`;
      case 'displayName':
        return () => `Fuzz ${unique()}`;
      case 'path':
        return 'displayName';
      case 'value':
        return schema.format ? undefined : () => `Fuzz ${unique()}`;
      case 'schemas':
        return Array.isArray(schema.example) ? schema.example : undefined;
      case 'members':
        return [];
      case 'code':
        return '123456';
      default:
        return undefined;
    }
  };
  // A null from a hint means "leave the field out" (fc.record keeps it, so strip it after generation).
  const withoutNulls = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null))
      : value;

  function sample<T>(arb: fc.Arbitrary<T>, seed: number): T {
    return fc.sample(arb, { numRuns: 1, seed })[0];
  }

  /** A body the schema allows; `full` sends every optional field too (a fixture should pass every business rule). */
  function validBody(op: Operation, seed: number, full = false): unknown {
    if (!op.body) return undefined;
    const name = op.body.schema.$ref?.split('/').pop() ?? '';
    const body = withoutNulls(sample(validArb(doc, op.body.schema, hints, '', 0, full), seed));
    // SCIM resources name their schema; the generic hint reads it from the property's example.
    if (SCIM_SCHEMAS[name] && body && typeof body === 'object') (body as Record<string, unknown>).schemas = [SCIM_SCHEMAS[name]];
    return body;
  }

  function validQuery(op: Operation, seed: number): Record<string, string> {
    const query: Record<string, string> = {};
    for (const p of op.queryParams) {
      if (!p.required && p.name !== 'workspace_id') continue;
      query[p.name] = String(sample(validArb(doc, p.schema, hints, p.name), seed));
    }
    return query;
  }

  function credentialHeaders(op: Operation, viaSession = false): Record<string, string> {
    switch (op.credential) {
      case 'developer':
        return viaSession ? { Cookie: `sid=${session.sid}`, 'X-CSRF-Token': session.csrf } : dev.auth;
      case 'scim':
        return { Authorization: `Bearer ${scimToken}` };
      case 'end-user':
        return { Authorization: `Bearer ${endUserToken}` };
      case 'ssf':
        return receiverAuth;
      default:
        return {};
    }
  }

  async function send(
    op: Operation,
    path: string,
    query: Record<string, string | string[]>,
    body: unknown,
    viaSession = false,
  ): Promise<Response> {
    const req = t.http()[op.method](path).query(query).set(credentialHeaders(op, viaSession)).timeout(30_000);
    sent++;
    const res = await (body === undefined || !op.body
      ? req
      : op.body.type === 'application/x-www-form-urlencoded'
        ? req.type('form').send(body as object)
        : req.set('Content-Type', op.body.type).send(JSON.stringify(body)));
    if (TRACE) {
      process.stdout.write(
        `${op.method.toUpperCase()} ${path} ${JSON.stringify(query).slice(0, 200)} ${JSON.stringify(body)?.slice(0, 300)} -> ${res.status} ${res.text?.slice(0, 300)}\n`,
      );
    }
    return res;
  }

  /** An existing resource for a path parameter: created through the collection's POST, or read from its list. */
  async function resourceFor(op: Operation, index: number, filled: string[], fresh: boolean): Promise<string> {
    const param = op.pathParams[index];
    if (param.name === 'workspaceId') return ws.id;
    const template = op.path.slice(0, op.path.indexOf(`{${param.name}}`));
    const concrete = fill(template, filled);
    const key = `${op.credential} ${concrete}`;
    if (!fresh && fixtureIds.has(key)) return fixtureIds.get(key)!;
    const collection = (method: string) =>
      operations.find((o) => o.method === method && (o.path === template || o.path === template.replace(/\/$/, '')));
    const pick = (item: unknown): string | undefined => {
      const row = item as Record<string, unknown> | undefined;
      const snake = param.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const value = row?.id ?? row?.[param.name] ?? row?.[snake] ?? row?.name;
      return typeof value === 'string' ? value : undefined;
    };
    let id: string | undefined;
    const create = collection('post');
    if (create) {
      const res = await send(
        create,
        concrete.endsWith('/') || !create.path.endsWith('/') ? concrete : `${concrete}/`,
        validQuery(create, 1),
        validBody(create, fixtureIds.size + 1, true),
      );
      if (res.status < 300) id = pick(res.body);
    }
    const list = collection('get');
    if (!id && list) {
      const res = await send(list, concrete, validQuery(list, 1), undefined);
      const body = res.body as { results?: unknown[]; Resources?: unknown[] } | unknown[];
      const rows = Array.isArray(body) ? body : (body.results ?? body.Resources ?? []);
      id = pick(rows[0]);
    }
    id ??= randomUUID();
    if (!fresh) fixtureIds.set(key, id);
    return id;
  }

  function fill(template: string, values: string[]): string {
    let i = 0;
    return template.replace(/\{\w+\}/g, () => encodeURIComponent(values[i++] ?? ''));
  }

  /** After a write that may have ended a credential (a logout, a revoked session), mint a new one. */
  async function keepCredentials(op: Operation): Promise<void> {
    if (op.credential === 'end-user') {
      const res = await t.http().get('/user/security/sessions/').set('Authorization', `Bearer ${endUserToken}`);
      if (res.status === 401) endUserToken = (await logIn(t, endUser)).access_token;
    }
    if (op.credential === 'developer') {
      const res = await t.http().get('/developer/me/').set(dev.auth);
      if (res.status === 401) dev = await aDeveloper(t, { email: dev.email, password: dev.password }).catch(() => aDeveloper(t));
      const viaCookie = await t.http().get('/developer/me/').set('Cookie', `sid=${session.sid}`);
      if (viaCookie.status === 401) session = await developerSession();
    }
  }

  function record(op: Operation, problem: string, c: Case, path: string, res: Response): void {
    const key = `${op.label} ${problem.split(':')[0]}`;
    if (findings.has(key)) return;
    findings.set(key, {
      operation: op.label,
      problem,
      request: `${c.note}: ${path}?${new URLSearchParams(c.query as Record<string, string>).toString().slice(0, 200)} ${JSON.stringify(c.body)?.slice(0, 300) ?? ''}`,
      answer: `${res.status} ${(res.text ?? '').slice(0, 300)}`,
    });
  }

  async function run(op: Operation, c: Case): Promise<void> {
    const values: string[] = [];
    for (let i = 0; i < op.pathParams.length; i++) {
      values.push(c.path?.index === i ? c.path.value : await resourceFor(op, i, values, op.method === 'delete'));
    }
    const path = fill(op.path, values);
    // Every other request of a dashboard route comes with the session cookie and its CSRF header instead of a token.
    const res = await send(op, path, c.query, c.body, sent % 2 === 1);
    if (res.status < 400) succeeded.add(op.label);
    if (res.status >= 500) record(op, `server error ${res.status}`, c, path, res);
    const refusable = refusableBecause(op, c);
    if (refusable && res.status < 400) record(op, `accepted with ${res.status} what the document refuses: ${refusable}`, c, path, res);
    const documented = op.responses[String(res.status)] ?? op.responses.default;
    if (!documented) {
      record(op, `undocumented status ${res.status}`, c, path, res);
    } else if (documented.content && res.text) {
      const type = String(res.headers['content-type'] ?? '').split(';')[0];
      const media =
        documented.content[type] ??
        (JSONISH.test(type) ? Object.entries(documented.content).find(([k]) => JSONISH.test(k))?.[1] : undefined);
      if (!media) {
        record(op, `undocumented content type ${type} for ${res.status}`, c, path, res);
      } else if (media.schema && JSONISH.test(type)) {
        const problems = checker.check(media.schema, res.body);
        if (problems.length) record(op, `body of ${res.status} does not match its schema: ${problems.join('; ')}`, c, path, res);
      }
    }
    if (res.status < 300 && op.method !== 'get') await keepCredentials(op);
  }

  /**
   * Why the document says this request is invalid, if it does: a JSON body outside its request
   * schema (null where the field is not nullable, a wrong type, a bound crossed) or a query value
   * outside its parameter's schema. SCIM is left out: RFC 7644 makes it lenient on purpose
   * (case-insensitive names and values, unknown attributes ignored).
   */
  function refusableBecause(op: Operation, c: Case): string | undefined {
    if (op.path.startsWith('/scim/v2')) return undefined;
    if (op.body?.type === 'application/json' && c.body !== undefined) {
      const problems = checker.check(op.body.schema, c.body);
      if (problems.length) return `body ${problems.join('; ')}`;
    }
    for (const p of op.queryParams) {
      const value = c.query[p.name];
      if (value === undefined) {
        if (p.required) return `query ${p.name} missing`;
        continue;
      }
      const problem = queryProblem(resolve(doc, p.schema), value);
      if (problem) return `query ${p.name} ${problem}`;
    }
    return undefined;
  }

  /** Deterministic: null and a wrong type in each body field, each required field left out, hostile query and path values. */
  function systematicCases(op: Operation): Case[] {
    const cases: Case[] = [{ note: 'valid', query: validQuery(op, 0), body: validBody(op, 0) }];
    if (op.body) {
      const body = validBody(op, 0);
      const schema = op.body.schema;
      for (const path of fieldPaths(body)) {
        cases.push({ note: `null at ${path.join('.')}`, query: validQuery(op, 0), body: setAt(body, path, null) });
      }
      const resolved = schemaAt(doc, schema, []);
      for (const name of Object.keys(resolved?.properties ?? {})) {
        const present = body && typeof body === 'object' ? name in body : false;
        const base = present ? body : { ...(body as object), [name]: 'x' };
        cases.push({ note: `null in ${name}`, query: validQuery(op, 0), body: setAt(base, [name], null) });
        cases.push({ note: `wrong type in ${name}`, query: validQuery(op, 0), body: setAt(base, [name], { not: 'this' }) });
        if (resolved?.required?.includes(name)) {
          cases.push({ note: `${name} left out`, query: validQuery(op, 0), body: setAt(body, [name], undefined, true) });
        }
      }
      cases.push({ note: 'extra field', query: validQuery(op, 0), body: { ...(body as object), fuzz_extra_field: 1 } });
      for (const whole of [null, [], 'text', 1, {}]) {
        cases.push({ note: `body ${JSON.stringify(whole)}`, query: validQuery(op, 0), body: whole });
      }
    }
    for (const p of op.queryParams) {
      for (const value of ['', '9223372036854775808', '1e309', '-1', 'x'.repeat(5000), 'a\u0000b']) {
        cases.push({
          note: `query ${p.name}=${value.slice(0, 20)}`,
          query: { ...validQuery(op, 0), [p.name]: value },
          body: validBody(op, 0),
        });
      }
      cases.push({ note: `query ${p.name} twice`, query: { ...validQuery(op, 0), [p.name]: ['1', '2'] }, body: validBody(op, 0) });
    }
    op.pathParams.forEach((p, index) => {
      for (const value of ['not-an-id', '9223372036854775808', '00000000-0000-0000-0000-000000000000', 'x'.repeat(300)]) {
        cases.push({
          note: `path ${p.name}=${value.slice(0, 20)}`,
          path: { index, value },
          query: validQuery(op, 0),
          body: validBody(op, 0),
        });
      }
    });
    return cases;
  }

  /** Random: a valid request with one hostile change, drawn by fast-check from the operation's own schemas. */
  function randomCases(op: Operation, seed: number): Case[] {
    const bodyArb = op.body ? validArb(doc, op.body.schema, hints).map(withoutNulls) : fc.constant(undefined);
    const queryArb = fc.record(
      Object.fromEntries(op.queryParams.map((p) => [p.name, validArb(doc, p.schema, hints, p.name).map(String)])),
      { requiredKeys: op.queryParams.filter((p) => p.required || p.name === 'workspace_id').map((p) => p.name) },
    ) as fc.Arbitrary<Record<string, string>>;
    const caseArb = fc.tuple(bodyArb, queryArb, fc.nat(), fc.integer({ min: 0, max: 5 })).chain(([body, query, pick, kind]) => {
      const paths = fieldPaths(body);
      if (kind <= 1 && paths.length && op.body) {
        const path = paths[pick % paths.length];
        return hostileArb(doc, schemaAt(doc, op.body.schema, path)).map((bad): Case => ({
          note: `hostile at ${path.join('.')}`,
          query,
          body: setAt(body, path, bad),
        }));
      }
      if (kind === 2 && paths.length) {
        const path = paths[pick % paths.length];
        return fc.constant<Case>({ note: `left out ${path.join('.')}`, query, body: setAt(body, path, undefined, true) });
      }
      if (kind === 3 && op.queryParams.length) {
        const name = op.queryParams[pick % op.queryParams.length].name;
        return fc
          .constantFrom(...HOSTILE_QUERY_VALUES)
          .map((bad): Case => ({ note: `hostile query ${name}`, query: { ...query, [name]: bad }, body }));
      }
      if (kind === 4 && op.pathParams.length) {
        const index = pick % op.pathParams.length;
        return fc
          .constantFrom(...HOSTILE_QUERY_VALUES.filter(Boolean))
          .map((bad): Case => ({ note: `hostile path ${op.pathParams[index].name}`, path: { index, value: bad }, query, body }));
      }
      return fc.constant<Case>({ note: 'generated', query, body });
    });
    return fc.sample(caseArb, { numRuns: RUNS, seed });
  }

  it(
    'answers every generated request below 500, with a documented status and a body matching its schema',
    async () => {
      // Deletes last: a delete of a fixture's parent would otherwise turn later operations into 404s.
      const ordered = [...operations]
        .filter((op) => !ONLY || op.label.includes(ONLY))
        .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
      for (const [i, op] of ordered.entries()) {
        for (const c of [...systematicCases(op), ...randomCases(op, SEED + i)]) await run(op, c);
      }
      if (!ONLY) expect(operations.length).toBeGreaterThan(90);
      expect([...findings.values()]).toEqual([]);
    },
    Math.max(900_000, RUNS * 10_000),
  );
});
