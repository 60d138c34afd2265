import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, aScimUser, aUserName, ERROR_SCHEMA, LIST_RESPONSE } from './scim-support';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/** POST /Users/.search, /Groups/.search and /.search (RFC 7644 §3.4.3): the list's engine, parameters in the body. */
describe('SCIM searches with POST', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('POST /Users/.search answers 200 with the same ListResponse as GET, honouring filter, paging and projection', async () => {
    const s = await aScimTenant(t);
    const names = [aUserName('a'), aUserName('b'), aUserName('c')];
    for (const n of names) await aScimUser(s, n);
    const filter = 'userName sw "a." or userName sw "b." or userName sw "c."';
    const res = await s
      .post('/Users/.search', { schemas: [SEARCH], filter, startIndex: 2, count: 1, attributes: ['userName'] })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    const viaGet = await s.get(`/Users?filter=${encodeURIComponent(filter)}&startIndex=2&count=1&attributes=userName`).expect(200);
    expect(res.body).toEqual(viaGet.body);
    expect(res.body).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(Object.keys(res.body.Resources[0]).sort()).toEqual(['id', 'schemas', 'userName']);
    expect(res.body.Resources[0].userName).toBe(names[1]);
  });

  it('POST /Groups/.search filters and drops members with excludedAttributes', async () => {
    const s = await aScimTenant(t);
    const u = await aScimUser(s);
    const g = await aScimGroup(s, 'Engineering', [u.id]);
    await aScimGroup(s, 'Sales');
    const res = await s
      .post('/Groups/.search', { schemas: [SEARCH], filter: 'displayName eq "engineering"', excludedAttributes: ['members'] })
      .expect(200);
    expect(res.body.totalResults).toBe(1);
    expect(res.body.Resources[0]).toMatchObject({ id: g.id, displayName: 'Engineering' });
    expect(res.body.Resources[0]).not.toHaveProperty('members');
  });

  it('POST /.search lists users then groups, pages across both, and applies a filter only to the types that have its attributes', async () => {
    const s = await aScimTenant(t);
    const [u1, u2] = [await aScimUser(s), await aScimUser(s)];
    const [g1, g2] = [await aScimGroup(s, 'G1'), await aScimGroup(s, 'G2')];
    const all = await s.post('/.search', { schemas: [SEARCH] }).expect(200);
    expect(all.body.totalResults).toBe(4);
    expect(all.body.Resources.map((r: { id: string }) => r.id)).toEqual([u1.id, u2.id, g1.id, g2.id]);
    const middle = await s.post('/.search', { schemas: [SEARCH], startIndex: 2, count: 2 }).expect(200);
    expect(middle.body).toMatchObject({ totalResults: 4, startIndex: 2, itemsPerPage: 2 });
    expect(middle.body.Resources.map((r: { id: string }) => r.id)).toEqual([u2.id, g1.id]);
    const groupsOnly = await s.post('/.search', { filter: 'displayName sw "G"' }).expect(200);
    // displayName exists on both types; users here have none that starts with G.
    expect(groupsOnly.body.Resources.map((r: { id: string }) => r.id)).toEqual([g1.id, g2.id]);
    const membersFilter = await s.post('/.search', { filter: 'members pr' }).expect(200);
    expect(membersFilter.body.totalResults).toBe(0);
    const usersOnly = await s.post('/.search', { filter: `userName eq "${u1.userName}"` }).expect(200);
    expect(usersOnly.body.Resources.map((r: { id: string }) => r.id)).toEqual([u1.id]);
  });

  it('refuses a filter no type understands and a malformed body in the SCIM error format', async () => {
    const s = await aScimTenant(t);
    const bad = await s.post('/.search', { filter: 'nickName eq "x"' }).expect(400);
    expect(bad.body).toMatchObject({ schemas: [ERROR_SCHEMA], scimType: 'invalidFilter' });
    expect((await s.post('/Users/.search', { filter: 'userName eq' }).expect(400)).body.scimType).toBe('invalidFilter');
    expect((await s.post('/Users/.search', { count: 'ten' }).expect(400)).body.scimType).toBe('invalidValue');
    expect((await s.post('/Groups/.search', { attributes: [1] }).expect(400)).body.scimType).toBe('invalidValue');
  });

  it('keeps each search inside the token’s workspace', async () => {
    const a = await aScimTenant(t);
    const b = await aScimTenant(t);
    const mine = await aScimUser(a);
    await aScimUser(b);
    const res = await a.post('/.search', {}).expect(200);
    expect(res.body.Resources.map((r: { id: string }) => r.id)).toEqual([mine.id]);
  });
});
