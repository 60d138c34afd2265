import fc from 'fast-check';
import { ScimError } from '../scim.errors';
import { FilterNode } from './ast';
import { GROUP_ATTRS, USER_ATTRS } from './attributes';
import { evaluateFilter } from './evaluate';
import { arbAnyFilter } from './filter.arbitraries';
import { parseFilter } from './parser';
import { escapeLike, filterToSql } from './to-sql';

function sql(filter: string, attrs = USER_ATTRS): { sql: string; params: unknown[] } {
  const params: unknown[] = ['workspace-id'];
  return { sql: filterToSql(parseFilter(filter), attrs, params), params };
}

describe('filterToSql', () => {
  it('compares userName case-insensitively with lower() so the lower(email) index applies', () => {
    expect(sql('userName eq "Bob@Example.COM"')).toEqual({
      sql: '(lower(u.email) = lower($2))',
      params: ['workspace-id', 'Bob@Example.COM'],
    });
  });

  it('resolves URN-prefixed and differently cased attribute names', () => {
    expect(sql('urn:ietf:params:scim:schemas:core:2.0:User:USERNAME eq "a"').sql).toBe('(lower(u.email) = lower($2))');
    expect(sql('EMAILS.VALUE co "a"').sql).toBe(`(lower(u.email) LIKE lower($2) ESCAPE '\\')`);
  });

  it('passes values only as parameters, with LIKE wildcards escaped', () => {
    const out = sql(`displayName co "50%_off\\\\'; drop table x;--"`);
    expect(out.sql).not.toContain('drop');
    expect(out.params[1]).toBe("%50\\%\\_off\\\\'; drop table x;--%");
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
  });

  it('turns a non-UUID id into a constant instead of a failing cast', () => {
    expect(sql('id eq "not-a-uuid"').sql).toBe('FALSE');
    expect(sql('externalId eq "2819C223-7F76-453A-919D-413861904646"')).toEqual({
      sql: '(u.id = $2::uuid)',
      params: ['workspace-id', '2819c223-7f76-453a-919d-413861904646'],
    });
  });

  it('keeps NOT two-valued on nullable columns', () => {
    expect(sql('not (name.givenName eq "a")').sql).toBe(
      "(NOT (NULLIF(u.first_name, '') IS NOT NULL AND (lower(NULLIF(u.first_name, '')) = lower($2))))",
    );
  });

  it("wraps a group's member filter in one EXISTS over the membership table", () => {
    const out = sql(
      'id eq "2819c223-7f76-453a-919d-413861904646" and members[value eq "902c246b-6245-4190-8e05-00816be7344a"]',
      GROUP_ATTRS,
    );
    expect(out.sql).toBe(
      '((g.id = $2::uuid) AND EXISTS (SELECT 1 FROM scim_group_members gm WHERE gm.group_id = g.id AND (gm.user_id = $3::uuid)))',
    );
  });

  it.each([
    ['title eq "CEO"', /unknown attribute 'title' for User/],
    ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "1"', /does not store/],
    ['active gt true', /operator gt is not supported for boolean/],
    ['active eq "yes"', /is boolean/],
    ['userName eq 5', /quoted string/],
    ['userName eq null', /not supported/],
    ['meta.created gt "yesterday"', /ISO 8601/],
    ['emails[foo eq "x"]', /unknown attribute 'emails\[foo\]'/],
    ['name[givenName eq "x"]', /does not support a value filter/],
  ])('rejects %j with invalidFilter', (filter, detail) => {
    expect(() => sql(filter)).toThrow(ScimError);
    expect(() => sql(filter)).toThrow(detail);
  });

  it('throws nothing but invalidFilter for any parsed filter', () => {
    fc.assert(
      fc.property(arbAnyFilter, fc.boolean(), (ast: FilterNode, group) => {
        const attrs = group ? GROUP_ATTRS : USER_ATTRS;
        for (const run of [() => filterToSql(ast, attrs, []), () => evaluateFilter(ast, {}, attrs)]) {
          try {
            run();
          } catch (e) {
            expect(e).toBeInstanceOf(ScimError);
            expect((e as ScimError).scimType).toBe('invalidFilter');
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('evaluateFilter', () => {
  const user = {
    id: '2819c223-7f76-453a-919d-413861904646',
    userName: 'bjensen@example.com',
    displayName: 'Barbara Jensen',
    name: { givenName: 'Barbara', familyName: 'Jensen', formatted: 'Barbara Jensen' },
    emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
    active: true,
    meta: { created: '2024-01-02T03:04:05.678Z', lastModified: '2024-01-02T03:04:05.678Z' },
  };
  it.each([
    ['userName eq "BJensen@example.com"', true],
    ['emails[type eq "work" and value ew "@EXAMPLE.com"]', true],
    ['emails[type eq "home"]', false],
    ['name.givenName sw "bar" and not (active eq false)', true],
    ['meta.created gt "2024-01-01T00:00:00Z" and meta.created lt "2024-01-02T03:04:05.679Z"', true],
    ['displayName eq "barbara jensen"', true],
    ['name.familyName gt "k"', false],
  ])('%s -> %s', (filter, expected) => {
    expect(evaluateFilter(parseFilter(filter), user, USER_ATTRS)).toBe(expected);
  });
});
