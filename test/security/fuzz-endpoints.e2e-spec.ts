import fc from 'fast-check';
import { deflateRawSync } from 'node:zlib';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, anOAuthClient, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';
import { listRoutes, RouteInfo } from '../support/routes';
import { samlEnv } from '../saml/support/saml-env';

const deflated = (xml: string) => deflateRawSync(Buffer.from(xml)).toString('base64');
const AUTHN = (inner: string) =>
  `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_x" Version="2.0" IssueInstant="2026-01-01T00:00:00Z">${inner}</samlp:AuthnRequest>`;
/** SAMLRequest values an attacker would try: bad base64, bad DEFLATE, entities, a bomb, wrapped elements. */
const HOSTILE_SAML_REQUESTS = [
  '%%%not-base64%%%',
  Buffer.from('not deflate data').toString('base64'),
  deflated(
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>' +
      AUTHN('<saml:Issuer>&b;</saml:Issuer>'),
  ),
  deflated('<r>' + 'A'.repeat(5_000_000) + '</r>'),
  deflated(AUTHN('<saml:Issuer>https://a.example</saml:Issuer><saml:Issuer>https://b.example</saml:Issuer>')),
  deflated(`<wrap>${AUTHN('<saml:Issuer>https://a.example</saml:Issuer>')}${AUTHN('')}</wrap>`),
];

/** Cases per route; `npm run test:long` raises it. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const FIELDS = [
  'email',
  'password',
  'name',
  'workspace_id',
  'label',
  'expires_at',
  'role',
  'description',
  'client_id',
  'code',
  'display_name',
  'engine',
  'filter',
  'userName',
  'displayName',
  'members',
  'Operations',
  'schemas',
  'acs_url',
  'sp_entity_id',
  'attribute_mapping',
  'limit',
  'cursor',
  'redirect_uris',
  'refresh_token',
  'new_password',
];

const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant('00000000-0000-0000-0000-000000000000'),
  fc.constant('x'.repeat(5000)),
  fc.constant("'; DROP TABLE developers; --"),
  fc.constant('\u0000\uFFFF\uD800'),
);
const hostileJson = fc.oneof(
  fc
    .dictionary(
      fc.constantFrom(...FIELDS),
      fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 })),
    )
    .map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"__proto__":{"polluted":true},"email":"a@b.c"}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":' + '{"a":'.repeat(2000) + '1' + '}'.repeat(2001),
    'not json',
    '{"email": "\\ud800"}',
  ),
);
const hostileQuery = fc.dictionary(
  fc.constantFrom(
    ...FIELDS,
    'workspace_id',
    'limit',
    'cursor',
    'from',
    'to',
    'startIndex',
    'count',
    'attributes',
    'SAMLRequest',
    'RelayState',
    'next',
  ),
  fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom(
      '-1',
      '0',
      '1e309',
      'NaN',
      '9'.repeat(40),
      'userName eq',
      '(((((',
      '2026-13-45T99:99:99Z',
      'https://evil.example/',
      ...HOSTILE_SAML_REQUESTS,
    ),
  ),
  { maxKeys: 4 },
);
const hostileHeaders = fc.record({
  'X-Forwarded-For': fc.oneof(
    fc.constant('1.2.3.4, '.repeat(1500)),
    fc.string({ maxLength: 50 }).filter((s) => !/[\r\n\u0000-\u001f\u007f-\uffff]/.test(s)),
    fc.constant('not-an-ip'),
  ),
  Cookie: fc.constantFrom('sid=garbage', 'sid=' + 'x'.repeat(4000), 'esid=%E0%A4%A', 'sid', ';;;==;'),
  'X-Request-Id': fc.constantFrom('ok-id', '../../etc/passwd', 'x'.repeat(500)),
});

const STACK = /\bat [\w.<>]+ \(|node_modules|QueryFailedError|TypeError:/;

describe('hostile input on every endpoint', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  let cases = 0;
  beforeAll(async () => {
    t = await createTestApp(samlEnv());
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
    await anOAuthClient(t, dev, ws);
  });
  afterAll(async () => {
    process.stdout.write(`fuzz: ${cases} hostile requests across ${listRoutes(t.app).length} routes\n`);
    await t.close();
  });

  /**
   * Rows in every table we own except the audit log (refusals such as saml_sso_failure are recorded by design)
   * and its seal (audit_chain, audit_checkpoints: the sealer binds audit rows into them in the background).
   */
  async function rowCount(): Promise<number> {
    const tables = (await t.dataSource.query(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('jobs', 'schema_migrations', 'audit_events', 'audit_chain', 'audit_checkpoints') AND tablename NOT LIKE 'test_%'`,
    )) as { tablename: string }[];
    const [row] = (await t.dataSource.query(
      `SELECT ${tables.map((r) => `(SELECT count(*) FROM "${r.tablename}")`).join(' + ')} AS total`,
    )) as { total: string }[];
    return Number(row.total);
  }

  function send(route: RouteInfo, body: string, query: Record<string, string>, headers: Record<string, string>) {
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? ws.id : '00000000-0000-4000-8000-000000000000'));
    const http = t.http();
    const method = route.method.toLowerCase() as 'post';
    const req = http[method](path)
      .query({ workspace_id: ws.id, ...query })
      .set(headers)
      .set('Content-Type', 'application/json')
      .timeout(20000);
    if (route.auth === 'developer') void req.set(dev.auth);
    return ['GET', 'DELETE'].includes(route.method) ? req : req.send(body);
  }

  it('never answers 5xx, never shows a stack trace, and a refused request writes nothing', async () => {
    const routes = listRoutes(t.app).filter((r) => !['/health/ready', '/metrics'].includes(r.path));
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(hostileJson, hostileQuery, hostileHeaders, async (body, query, headers) => {
          const before = await rowCount();
          const res = await send(route, body, query, headers);
          cases++;
          const label = `${route.method} ${route.path} -> ${res.status}`;
          expect({ label, serverError: res.status >= 500 }).toEqual({ label, serverError: false });
          expect(res.text ?? '').not.toMatch(STACK);
          if (res.status >= 400) expect({ label, rows: await rowCount() }).toEqual({ label, rows: before });
        }),
        { numRuns: RUNS },
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 600000);
});
