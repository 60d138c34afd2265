import fc from 'fast-check';
import { ScimError } from '../scim.errors';
import { FilterNode } from './ast';
import { arbAnyFilter } from './filter.arbitraries';
import { parseFilter, parsePatchPath } from './parser';
import { printFilter, printPatchPath } from './printer';

const cmp = (attr: string, op: string, value: unknown, sub?: string) => ({
  type: 'compare',
  path: sub ? { attr, sub } : { attr },
  op,
  value,
});

function expectInvalid(filter: string, detail: RegExp): void {
  let caught: unknown;
  try {
    parseFilter(filter);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ScimError);
  expect((caught as ScimError).scimType).toBe('invalidFilter');
  expect((caught as ScimError).status).toBe(400);
  expect((caught as ScimError).message).toMatch(detail);
}

describe('parseFilter', () => {
  it('parses the filter Okta and Entra send to test a connection', () => {
    expect(parseFilter('userName eq "ff4dd2fb-19d6-4f16-bc2b-3c5a3f1d7a4e"')).toEqual(
      cmp('userName', 'eq', 'ff4dd2fb-19d6-4f16-bc2b-3c5a3f1d7a4e'),
    );
  });

  it('reads operators, keywords and literals in any case', () => {
    expect(parseFilter('active EQ True AND userName Sw "a"')).toEqual({
      type: 'logical',
      op: 'and',
      left: cmp('active', 'eq', true),
      right: cmp('userName', 'sw', 'a'),
    });
  });

  it('binds and tighter than or, and parentheses override it', () => {
    const a = cmp('a', 'eq', 1);
    const b = cmp('b', 'eq', 2);
    const c = cmp('c', 'eq', 3);
    expect(parseFilter('a eq 1 or b eq 2 and c eq 3')).toEqual({
      type: 'logical',
      op: 'or',
      left: a,
      right: { type: 'logical', op: 'and', left: b, right: c },
    });
    expect(parseFilter('(a eq 1 or b eq 2) and c eq 3')).toEqual({
      type: 'logical',
      op: 'and',
      left: { type: 'logical', op: 'or', left: a, right: b },
      right: c,
    });
  });

  it('accepts not( with and without a space', () => {
    const expected = { type: 'not', filter: cmp('active', 'eq', false) };
    expect(parseFilter('not(active eq false)')).toEqual(expected);
    expect(parseFilter('NOT (active eq false)')).toEqual(expected);
  });

  it('decodes escapes in quoted strings', () => {
    expect(parseFilter(String.raw`displayName eq "say \"hi\" \\ \u00e9\n"`)).toEqual(cmp('displayName', 'eq', 'say "hi" \\ é\n'));
  });

  it('reads bare true, false, null and numbers', () => {
    expect(parseFilter('x eq null')).toEqual(cmp('x', 'eq', null));
    expect(parseFilter('x gt -1.5e3')).toEqual(cmp('x', 'gt', -1500));
  });

  it('splits URN-prefixed and dotted attribute names', () => {
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:name.givenName pr')).toEqual({
      type: 'present',
      path: { urn: 'urn:ietf:params:scim:schemas:core:2.0:User', attr: 'name', sub: 'givenName' },
    });
  });

  it('parses value filters such as members[value eq "…"] combined with other terms', () => {
    expect(parseFilter('id eq "g1" and members[value eq "u1"]')).toEqual({
      type: 'logical',
      op: 'and',
      left: cmp('id', 'eq', 'g1'),
      right: { type: 'valuePath', path: { attr: 'members' }, filter: cmp('value', 'eq', 'u1') },
    });
  });

  it.each([
    ['', /expected an attribute name/],
    ['userName', /expected an operator/],
    ['userName eq', /expected a value/],
    ['userName equals "x"', /expected an operator .* found 'equals'/],
    ['userName eq "x" and', /expected an attribute name/],
    ['(userName eq "x"', /expected '\)'/],
    ['userName eq "x")', /unexpected '\)'/],
    ['userName eq "unterminated', /unterminated or malformed string/],
    ['userName eq bob', /expected a value/],
    ['emails[type eq "work"', /expected '\]'/],
    ['emails[types[value eq "x"]]', /cannot be nested/],
    ['1abc eq "x"', /not a valid attribute name/],
    ['('.repeat(100), /nested more than/],
  ])('rejects %j with invalidFilter saying what is wrong', (filter, detail) => {
    expectInvalid(filter, detail);
  });

  it('round-trips every generated filter through print and parse', () => {
    fc.assert(
      fc.property(arbAnyFilter, (ast: FilterNode) => {
        expect(parseFilter(printFilter(ast))).toEqual(ast);
      }),
      { numRuns: 2000 },
    );
  });

  it('throws nothing but invalidFilter on random input', () => {
    const garbage = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom(...'()[]" \\aeqornt.:1'.split('')) }),
      // Near-misses: a valid filter with a slice cut out or a character spliced in.
      fc
        .tuple(arbAnyFilter.map(printFilter), fc.nat(), fc.nat(), fc.string({ maxLength: 2 }))
        .map(([s, a, b, ins]) => s.slice(0, a % (s.length + 1)) + ins + s.slice((a % (s.length + 1)) + (b % 4))),
    );
    fc.assert(
      fc.property(garbage, (input) => {
        try {
          parseFilter(input);
        } catch (e) {
          expect(e).toBeInstanceOf(ScimError);
          expect((e as ScimError).scimType).toBe('invalidFilter');
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('parsePatchPath', () => {
  it.each([
    'name.givenName',
    'emails[type eq "work"].value',
    'members[value eq "2819c223-7f76-453a-919d-413861904646"]',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager',
  ])('round-trips %s', (path) => {
    expect(printPatchPath(parsePatchPath(path))).toBe(path);
  });

  it('reports a malformed path as invalidPath', () => {
    expect(() => parsePatchPath('emails[type eq')).toThrow(expect.objectContaining({ scimType: 'invalidPath' }));
    expect(() => parsePatchPath('emails[type eq "work"]value')).toThrow(expect.objectContaining({ scimType: 'invalidPath' }));
  });
});
