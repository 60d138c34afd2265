import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, aScimUser, GROUP_SCHEMA, PATCH_OP, ScimResource, ScimTenant, USER_SCHEMA } from './scim-support';

describe('tenant isolation', () => {
  let t: TestApp;
  let a: ScimTenant;
  let b: ScimTenant;
  let aUsers: ScimResource[];
  let aGroup: ScimResource;
  beforeAll(async () => {
    t = await createTestApp();
    a = await aScimTenant(t);
    b = await aScimTenant(t);
    aUsers = [await aScimUser(a), await aScimUser(a)];
    aGroup = await aScimGroup(
      a,
      'Workspace A group',
      aUsers.map((u) => u.id),
    );
    await aScimUser(b);
  });
  afterAll(() => t.close());

  it('gives a token of workspace B a 404 for every user and group id of workspace A, whatever the method', async () => {
    for (const u of aUsers) {
      await b.get(`/Users/${u.id}`).expect(404);
      await b.put(`/Users/${u.id}`, { schemas: [USER_SCHEMA], userName: 'hijack@example.com' }).expect(404);
      await b.patch(`/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(404);
      await b.delete(`/Users/${u.id}`).expect(404);
    }
    await b.get(`/Groups/${aGroup.id}`).expect(404);
    await b.put(`/Groups/${aGroup.id}`, { schemas: [GROUP_SCHEMA], displayName: 'hijacked', members: [] }).expect(404);
    await b.patch(`/Groups/${aGroup.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members' }] }).expect(404);
    await b.delete(`/Groups/${aGroup.id}`).expect(404);

    // Nothing of A changed.
    const group = await a.get(`/Groups/${aGroup.id}`).expect(200);
    expect(group.body.displayName).toBe('Workspace A group');
    expect(group.body.members).toHaveLength(2);
    for (const u of aUsers) expect((await a.get(`/Users/${u.id}`).expect(200)).body).toMatchObject({ active: true, userName: u.userName });
  });

  it("never lists or filters into another workspace's users and groups", async () => {
    const users = await b.get('/Users?count=200').expect(200);
    expect(users.body.totalResults).toBe(1);
    expect(users.body.Resources.map((r: { id: string }) => r.id)).not.toEqual(expect.arrayContaining([aUsers[0].id]));
    for (const f of [
      `userName eq "${aUsers[0].userName}"`,
      `id eq "${aUsers[0].id}"`,
      `externalId eq "${aUsers[1].id}"`,
      'userName pr or not (userName pr)',
    ]) {
      const res = await b.get(`/Users?filter=${encodeURIComponent(f)}`).expect(200);
      expect(res.body.Resources.map((r: { id: string }) => r.id)).not.toContain(aUsers[0].id);
    }
    const groups = await b.get(`/Groups?filter=${encodeURIComponent(`members[value eq "${aUsers[0].id}"] or displayName pr`)}`).expect(200);
    expect(groups.body.totalResults).toBe(0);
  });

  it("lets workspace B reuse workspace A's userName and group name", async () => {
    await b.post('/Users', { schemas: [USER_SCHEMA], userName: aUsers[0].userName }).expect(201);
    await b.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Workspace A group' }).expect(201);
  });

  it("does not let workspace B add workspace A's users to its groups", async () => {
    const g = await aScimGroup(b, undefined, [aUsers[0].id]);
    expect(g.members).toEqual([]);
  });
});
