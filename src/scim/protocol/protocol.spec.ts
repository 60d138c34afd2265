import { readListQuery } from './list-query';
import { excludes, project, readProjection } from './projection';

describe('list query parameters', () => {
  it('defaults to startIndex 1 and count 100', () => {
    expect(readListQuery({})).toMatchObject({ startIndex: 1, count: 100 });
  });

  it('clamps count to 0..200 and startIndex below 1 to 1', () => {
    expect(readListQuery({ count: '500', startIndex: '0' })).toMatchObject({ count: 200, startIndex: 1 });
    expect(readListQuery({ count: '-3', startIndex: '-10' })).toMatchObject({ count: 0, startIndex: 1 });
    expect(readListQuery({ Count: '0', STARTINDEX: '7' })).toMatchObject({ count: 0, startIndex: 7 });
    expect(readListQuery({ count: '99999999999999999999999' })).toMatchObject({ count: 200 });
  });

  it('rejects a count that is not an integer with invalidValue', () => {
    expect(() => readListQuery({ count: 'ten' })).toThrow(expect.objectContaining({ scimType: 'invalidValue' }));
  });

  it('parses the filter and reports a bad one as invalidFilter', () => {
    expect(readListQuery({ filter: 'userName eq "a"' }).filter).toMatchObject({ type: 'compare' });
    expect(() => readListQuery({ filter: 'userName eq' })).toThrow(expect.objectContaining({ scimType: 'invalidFilter' }));
  });
});

describe('attributes and excludedAttributes', () => {
  const group = { schemas: ['s'], id: 'g', displayName: 'Eng', members: [{ value: 'u', display: 'U' }], meta: { resourceType: 'Group' } };

  it('drops members for excludedAttributes=members, as Entra asks', () => {
    const p = readProjection(undefined, 'members');
    expect(excludes(p, 'members')).toBe(true);
    expect(project(group, p)).toEqual({ schemas: ['s'], id: 'g', displayName: 'Eng', meta: { resourceType: 'Group' } });
  });

  it('keeps only the requested attributes, sub-attributes and always-returned ones', () => {
    const user = { schemas: ['s'], id: 'u', userName: 'a', name: { givenName: 'A', familyName: 'B' }, active: true };
    expect(project(user, readProjection('USERNAME, urn:ietf:params:scim:schemas:core:2.0:User:name.givenName'))).toEqual({
      schemas: ['s'],
      id: 'u',
      userName: 'a',
      name: { givenName: 'A' },
    });
    expect(excludes(readProjection('displayName'), 'members')).toBe(true);
    expect(excludes(readProjection('members.value'), 'members')).toBe(false);
  });
});
