import fc from 'fast-check';
import { AttrPath, CompareOp, COMPARE_OPS, FilterNode, FilterValue } from '../../src/scim/filter/ast';
import { AttrType, GROUP_ATTRS, ResourceAttrs, USER_ATTRS } from '../../src/scim/filter/attributes';
import { evaluateFilter } from '../../src/scim/filter/evaluate';
import { arbFilter } from '../../src/scim/filter/filter.arbitraries';
import { printFilter } from '../../src/scim/filter/printer';
import { ScimError } from '../../src/scim/scim.errors';
import { createTestApp, TestApp } from '../support/app';
import { aScimTenant, ScimTenant } from './scim-support';

/**
 * The SQL translation of a filter, run by PostgreSQL on a seeded workspace, must
 * select exactly what an independent in-memory evaluation of the same AST selects
 * over the resources' SCIM JSON.
 */
const WORDS = ['ann', 'Ann', 'anna', 'bob', 'BOB', 'é', 'Élodie', '%', '_', '\\', 'a_b', '50%', 'x y', ''];
const T0 = Date.parse('2024-03-01T10:00:00.000Z');

function casing(s: string): fc.Arbitrary<string> {
  return fc.constantFrom(s, s.toUpperCase(), s.toLowerCase(), s.charAt(0).toUpperCase() + s.slice(1));
}

function withUrn(path: AttrPath, urn: string): fc.Arbitrary<AttrPath> {
  return fc.boolean().map((prefixed) => (prefixed ? { urn, ...path } : path));
}

function pathOf(name: string): AttrPath {
  const [attr, sub] = name.split('.');
  return sub ? { attr, sub } : { attr };
}

type Pool = { strings: string[]; ids: string[] };

/** Values that hit the seeded data often: its own strings, parts of them, ids, dates around the seed times. */
function typedValues(type: AttrType, pool: Pool): fc.Arbitrary<FilterValue> {
  const pieceOf = (list: string[]) =>
    fc
      .constantFrom(...list)
      .chain((s) => fc.tuple(fc.nat(s.length), fc.nat(s.length)).map(([i, j]) => s.slice(Math.min(i, j), Math.max(i, j))));
  switch (type) {
    case 'string':
      return fc.oneof(fc.constantFrom(...pool.strings).chain(casing), pieceOf(pool.strings).chain(casing), fc.constantFrom(...WORDS));
    case 'uuid':
      return fc.oneof(fc.constantFrom(...pool.ids).chain(casing), pieceOf(pool.ids), fc.constant('not-a-uuid'));
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('True', 'false'));
    case 'dateTime':
      return fc.oneof(
        fc.integer({ min: -5, max: 70 }).map((m) => new Date(T0 + m * 60_000 + (m % 3)).toISOString()),
        fc.constantFrom('2024-03-01T10:00:00+01:00', '2024-03-01T10:30:00.0005Z'),
      );
  }
}

/** Mostly well-typed comparisons, sometimes ill-typed ones (which must be invalidFilter on both sides). */
function leaves(names: string[], urn: string, attrs: ResourceAttrs, pool: Pool, parent?: string): fc.Arbitrary<FilterNode> {
  return fc.constantFrom(...names).chain((name) => {
    const def = attrs.byName.get((parent ? `${parent}.${name}` : name).toLowerCase())!;
    const path = fc
      .constantFrom(name, name.toLowerCase(), name.toUpperCase())
      .map(pathOf)
      .chain((p) => (urn ? withUrn(p, urn) : fc.constant(p)));
    const ops =
      def.type === 'boolean'
        ? (['eq', 'ne'] as CompareOp[])
        : def.type === 'dateTime'
          ? COMPARE_OPS.filter((o) => !['co', 'sw', 'ew'].includes(o))
          : COMPARE_OPS;
    const value = fc.oneof(
      { weight: 12, arbitrary: typedValues(def.type, pool) },
      { weight: 1, arbitrary: fc.constantFrom<FilterValue>(5, null, 'yes', 'not a date', true) },
    );
    const op = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...ops) }, { weight: 1, arbitrary: fc.constantFrom(...COMPARE_OPS) });
    return fc.oneof(
      { weight: 6, arbitrary: fc.record({ type: fc.constant('compare' as const), path, op, value }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('present' as const), path }) },
    );
  });
}

describe('filter SQL against the in-memory evaluator on a seeded workspace', () => {
  let t: TestApp;
  let s: ScimTenant;
  let users: Record<string, unknown>[];
  let groups: Record<string, unknown>[];

  beforeAll(async () => {
    t = await createTestApp();
    s = await aScimTenant(t);
    const [{ workspace_id: ws }] = await t.dataSource.query(`SELECT workspace_id FROM scim_tokens WHERE id = $1`, [s.tokenId]);
    const first = ['Ann', 'anna', 'Bob', '', 'Élodie', 'a_b', '50%', 'x y', 'back\\slash', 'ann'];
    const last = ['Lee', '', 'bob', 'Smith-Jones', 'É', 'ann'];
    for (let i = 0; i < 40; i++) {
      await t.dataSource.query(
        `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, true, $6, $7)`,
        [
          ws,
          `${first[i % first.length].toLowerCase().replace(/[^a-z_%é]/g, '')}${i}@${i % 3 ? 'example.com' : 'ex_ample.org'}`,
          first[i % first.length],
          last[(i * 7) % last.length],
          i % 4 !== 0,
          new Date(T0 + i * 60_000 + (i % 3)).toISOString(),
          new Date(T0 + (i % 7) * 600_000).toISOString(),
        ],
      );
    }
    // An end user of an OAuth client in the same workspace, with a matching email: never a SCIM user.
    const [{ id: client }] = await t.dataSource.query(
      `INSERT INTO oauth_clients (workspace_id, client_id, client_secret_hash, name) VALUES ($1, 'cli_filter_test', 'x', 'App') RETURNING id`,
      [ws],
    );
    await t.dataSource.query(
      `INSERT INTO end_users (workspace_id, oauth_client_id, email, first_name) VALUES ($1, $2, 'ann0@ex_ample.org', 'Ann')`,
      [ws, client],
    );
    const ids = (
      await t.dataSource.query(`SELECT id FROM end_users WHERE workspace_id = $1 AND oauth_client_id IS NULL ORDER BY created_at`, [ws])
    ).map((r: { id: string }) => r.id);
    for (let g = 0; g < 6; g++) {
      const [{ id }] = await t.dataSource.query(
        `INSERT INTO scim_groups (workspace_id, display_name, created_at) VALUES ($1, $2, $3) RETURNING id`,
        [ws, ['Ann team', 'BOB', 'é group', '50% club', 'a_b', 'x y'][g], new Date(T0 + g * 300_000).toISOString()],
      );
      const members = ids.filter((_: string, i: number) => (i + g) % (g + 2) === 0);
      for (const m of members) {
        await t.dataSource.query(`INSERT INTO scim_group_members (group_id, user_id, workspace_id) VALUES ($1, $2, $3)`, [id, m, ws]);
      }
    }
    users = (await s.get('/Users?count=200').expect(200)).body.Resources;
    groups = (await s.get('/Groups?count=200').expect(200)).body.Resources;
    expect(users).toHaveLength(40);
  });
  afterAll(() => t.close());

  async function check(
    path: '/Users' | '/Groups',
    ast: FilterNode,
    resources: Record<string, unknown>[],
    attrs: typeof USER_ATTRS,
  ): Promise<void> {
    let expected: string[] | 'invalidFilter';
    try {
      expected = resources.filter((r) => evaluateFilter(ast, r, attrs)).map((r) => r.id as string);
    } catch (e) {
      if (!(e instanceof ScimError)) throw e;
      expected = 'invalidFilter';
    }
    const res = await s.get(`${path}?count=200&excludedAttributes=members&filter=${encodeURIComponent(printFilter(ast))}`);
    if (expected === 'invalidFilter') {
      expect({ filter: printFilter(ast), status: res.status, scimType: res.body.scimType }).toEqual({
        filter: printFilter(ast),
        status: 400,
        scimType: 'invalidFilter',
      });
    } else {
      expect(res.status).toBe(200);
      expect({ filter: printFilter(ast), ids: res.body.Resources.map((r: { id: string }) => r.id) }).toEqual({
        filter: printFilter(ast),
        ids: expected,
      });
      expect(res.body.totalResults).toBe(expected.length);
    }
  }

  it('selects the same users', async () => {
    const pool = {
      strings: users.flatMap((u) => [
        u.userName as string,
        (u.name as Record<string, string> | undefined)?.givenName ?? '',
        (u.name as Record<string, string> | undefined)?.familyName ?? '',
      ]),
      ids: users.map((u) => u.id as string).slice(0, 5),
    };
    const names = [
      'userName',
      'emails.value',
      'emails.type',
      'emails.primary',
      'emails',
      'name.givenName',
      'name.familyName',
      'name.formatted',
      'displayName',
      'active',
      'id',
      'externalId',
      'meta.created',
      'meta.lastModified',
    ];
    const leaf = leaves(names, 'urn:ietf:params:scim:schemas:core:2.0:User', USER_ATTRS, pool);
    const inner = arbFilter(leaves(['value', 'type', 'primary'], '', USER_ATTRS, pool, 'emails'));
    const filter = fc.oneof(
      { weight: 4, arbitrary: arbFilter(leaf) },
      { weight: 1, arbitrary: inner.map((f) => ({ type: 'valuePath' as const, path: { attr: 'emails' }, filter: f })) },
    );
    await fc.assert(
      fc.asyncProperty(filter, (ast) => check('/Users', ast, users, USER_ATTRS)),
      { numRuns: 400 },
    );
  });

  it('selects the same groups, including member value filters', async () => {
    const pool = { strings: groups.map((g) => g.displayName as string), ids: users.map((u) => u.id as string).slice(0, 8) };
    const leaf = leaves(
      ['displayName', 'id', 'members', 'members.value', 'meta.created'],
      'urn:ietf:params:scim:schemas:core:2.0:Group',
      GROUP_ATTRS,
      pool,
    );
    const inner = arbFilter(leaves(['value'], '', GROUP_ATTRS, pool, 'members'));
    const filter = fc.oneof(
      { weight: 3, arbitrary: arbFilter(leaf) },
      { weight: 1, arbitrary: inner.map((f) => ({ type: 'valuePath' as const, path: { attr: 'members' }, filter: f })) },
    );
    const full = (await s.get('/Groups?count=200').expect(200)).body.Resources;
    await fc.assert(
      fc.asyncProperty(filter, (ast) => check('/Groups', ast, full, GROUP_ATTRS)),
      { numRuns: 250 },
    );
  });
});
