import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, aScimUser, aUserName, ERROR_SCHEMA, GROUP_SCHEMA, PATCH_OP, USER_SCHEMA, userBody } from './scim-support';

const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/** SCIM bodies are read as docs/scim.md says (decision 0213): nothing malformed is silently dropped. */
describe('SCIM request bodies', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  describe('a malformed members entry is 400 invalidValue, never dropped', () => {
    const malformed: [string, unknown][] = [
      ['a value that is not a user id', { value: 'not-a-uuid' }],
      ['an entry without a value', { display: 'Alice' }],
      ['a number', 42],
      ['a value that is a number', { value: 7 }],
      ['null', null],
    ];

    it.each(malformed)('refuses %s on POST and changes nothing', async (_, entry) => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const displayName = `group-${Date.now()}`;
      const res = await s.post('/Groups', { schemas: [GROUP_SCHEMA], displayName, members: [{ value: u.id }, entry] }).expect(400);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidValue' });
      expect(res.body.detail).toMatch(/members\[1\]/);
      const listed = await s.get(`/Groups?filter=${encodeURIComponent(`displayName eq "${displayName}"`)}`).expect(200);
      expect(listed.body.totalResults).toBe(0);
    });

    it.each(malformed)('refuses %s on PUT and PATCH and keeps the membership', async (_, entry) => {
      const s = await aScimTenant(t);
      const [a, b] = [await aScimUser(s), await aScimUser(s)];
      const g = await aScimGroup(s, undefined, [a.id]);
      const put = await s.put(`/Groups/${g.id}`, {
        schemas: [GROUP_SCHEMA],
        displayName: g.displayName,
        members: [{ value: b.id }, entry],
      });
      expect(put.status).toBe(400);
      expect(put.body).toMatchObject({ scimType: 'invalidValue' });
      const patched = await s.patch(`/Groups/${g.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'add', path: 'members', value: [{ value: b.id }, entry] }],
      });
      expect(patched.status).toBe(400);
      expect(patched.body).toMatchObject({ scimType: 'invalidValue' });
      expect((await s.get(`/Groups/${g.id}`).expect(200)).body.members.map((m: { value: string }) => m.value)).toEqual([a.id]);
    });

    it('still skips a well-formed id of a user of another workspace (documented)', async () => {
      const [s, other] = [await aScimTenant(t), await aScimTenant(t)];
      const [mine, theirs] = [await aScimUser(s), await aScimUser(other)];
      const g = await aScimGroup(s, undefined, [mine.id, theirs.id]);
      expect(g.members.map((m: { value: string }) => m.value)).toEqual([mine.id]);
    });
  });

  describe('schemas: absent is accepted; present, it must name the resource or message', () => {
    it('refuses a User body whose schemas names another resource, or is not an array of URNs, storing nothing', async () => {
      const s = await aScimTenant(t);
      for (const schemas of [[GROUP_SCHEMA], 'urn:ietf:params:scim:schemas:core:2.0:User', [42]]) {
        const userName = aUserName();
        const res = await s.post('/Users', { ...userBody(userName), schemas }).expect(400);
        expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidSyntax' });
        const found = await s.get(`/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`).expect(200);
        expect(found.body.totalResults).toBe(0);
      }
    });

    it('accepts the core schema with an extension, in any case, and a body without schemas', async () => {
      const s = await aScimTenant(t);
      await s
        .post('/Users', {
          ...userBody(aUserName()),
          schemas: [USER_SCHEMA.toUpperCase(), 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        })
        .expect(201);
      const { schemas: _omitted, ...withoutSchemas } = userBody(aUserName());
      await s.post('/Users', withoutSchemas).expect(201);
    });

    it('refuses a Group body, a PATCH and a search whose schemas names something else', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const g = await aScimGroup(s);
      const group = await s.post('/Groups', { schemas: [USER_SCHEMA], displayName: `g-${Date.now()}` }).expect(400);
      expect(group.body.scimType).toBe('invalidSyntax');
      const patch = await s
        .patch(`/Users/${u.id}`, { schemas: [USER_SCHEMA], Operations: [{ op: 'replace', path: 'active', value: false }] })
        .expect(400);
      expect(patch.body.scimType).toBe('invalidSyntax');
      expect((await s.get(`/Users/${u.id}`).expect(200)).body.active).toBe(true);
      await s
        .patch(`/Groups/${g.id}`, { schemas: [GROUP_SCHEMA], Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] })
        .expect(400);
      const search = await s.post('/Users/.search', { schemas: [PATCH_OP], filter: 'userName pr' }).expect(400);
      expect(search.body.scimType).toBe('invalidSyntax');
      await s.post('/Users/.search', { schemas: [SEARCH_REQUEST], filter: 'userName pr' }).expect(200);
    });
  });

  describe('a list URL too long for the HTTP parser', () => {
    it('is the 431 the OpenAPI document declares for the SCIM lists, in the JSON error format', async () => {
      const s = await aScimTenant(t);
      const filter = encodeURIComponent(`userName eq "${'a'.repeat(20_000)}"`);
      const res = await s.get(`/Users?filter=${filter}`);
      expect(res.status).toBe(431);
      expect(JSON.parse(res.text)).toEqual({ error: 'headers_too_large', message: 'The request headers are too large' });
      const doc = (await t.http().get('/openapi.json').expect(200)).body as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      };
      for (const path of ['/scim/v2/Users', '/scim/v2/Groups']) expect(Object.keys(doc.paths[path].get.responses)).toContain('431');
    });
  });
});
