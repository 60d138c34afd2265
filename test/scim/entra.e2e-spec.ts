import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../support/app';
import { aScimTenant, GROUP_SCHEMA, PATCH_OP, ScimResource, ScimTenant, USER_SCHEMA } from './scim-support';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/**
 * The request sequence Microsoft Entra ID's provisioning service sends (learn.microsoft.com,
 * "Develop and plan provisioning for a SCIM endpoint"), asserting what Entra reads.
 */
describe('Microsoft Entra ID provisioning cycle', () => {
  let t: TestApp;
  let s: ScimTenant;
  beforeAll(async () => {
    t = await createTestApp();
    s = await aScimTenant(t);
  });
  afterAll(() => t.close());

  const byUserName = (u: string) => `/Users?filter=${encodeURIComponent(`userName eq "${u}"`)}`;
  const patch = (Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

  async function entraCreates(upn: string) {
    const res = await s
      .post('/Users', {
        schemas: [USER_SCHEMA, ENTERPRISE],
        externalId: randomUUID(),
        userName: upn,
        active: true,
        emails: [{ primary: true, type: 'work', value: upn }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
        [ENTERPRISE]: { employeeNumber: '42', department: 'R&D', manager: { value: randomUUID() } },
      })
      .expect(201);
    return res.body as ScimResource;
  }

  it('passes the connection test: a filter on a random userName returns an empty list', async () => {
    const res = await s.get(byUserName(randomUUID())).expect(200);
    expect(res.body).toMatchObject({ totalResults: 0, itemsPerPage: 0, startIndex: 1, Resources: [] });
  });

  it('creates a user with enterprise attributes, finds it by userName, updates, disables and deletes it', async () => {
    const upn = `Test_User_${randomUUID()}@testuser.com`;
    expect((await s.get(byUserName(upn)).expect(200)).body.totalResults).toBe(0);

    const user = await entraCreates(upn);
    const id = user.id as string;
    expect(user).toMatchObject({
      id,
      externalId: id,
      userName: upn.toLowerCase(),
      active: true,
      name: { givenName: 'givenName', familyName: 'familyName' },
    });
    expect(user).not.toHaveProperty(ENTERPRISE);

    const found = await s.get(byUserName(upn)).expect(200);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]).toEqual(user);

    const multi = await s
      .patch(
        `/Users/${id}`,
        patch([
          { op: 'Replace', path: 'emails[type eq "work"].value', value: `Updated_${upn}` },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
          { op: 'Add', path: `${ENTERPRISE}:employeeNumber`, value: '43' },
        ]),
      )
      .expect(200);
    expect(multi.body).toMatchObject({ userName: `updated_${upn}`.toLowerCase(), name: { familyName: 'updatedFamilyName' } });
    expect(multi.body.emails).toEqual([{ value: `updated_${upn}`.toLowerCase(), type: 'work', primary: true }]);

    const renamedUpn = `${randomUUID()}@contoso.com`;
    const single = await s.patch(`/Users/${id}`, patch([{ op: 'Replace', path: 'userName', value: renamedUpn }])).expect(200);
    expect(single.body.userName).toBe(renamedUpn);

    const disabled = await s.patch(`/Users/${id}`, patch([{ op: 'Replace', path: 'active', value: 'False' }])).expect(200);
    expect(disabled.body.active).toBe(false);
    const enabled = await s.patch(`/Users/${id}`, patch([{ op: 'Replace', path: 'active', value: true }])).expect(200);
    expect(enabled.body.active).toBe(true);

    await s.delete(`/Users/${id}`).expect(204, '');
    // Soft delete (spec): still readable, inactive.
    const after = await s.get(`/Users/${id}`).expect(200);
    expect(after.body.active).toBe(false);
  });

  it('takes a path-less replace with dotted and URN keys', async () => {
    const user = await entraCreates(`${randomUUID()}@contoso.com`);
    const res = await s
      .patch(
        `/Users/${user.id}`,
        patch([{ op: 'replace', value: { 'name.givenName': 'Ada', active: 'False', [`${ENTERPRISE}:department`]: 'Ops' } }]),
      )
      .expect(200);
    expect(res.body).toMatchObject({ name: { givenName: 'Ada' }, active: false });
  });

  it('creates a group, reads it without members, renames it, adds and removes members, checks membership and deletes it', async () => {
    const a = await entraCreates(`${randomUUID()}@contoso.com`);
    const b = await entraCreates(`${randomUUID()}@contoso.com`);
    const displayName = `Group_${randomUUID()}`;

    const created = await s
      .post('/Groups', {
        schemas: [GROUP_SCHEMA, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
        externalId: randomUUID(),
        displayName,
        meta: { resourceType: 'Group' },
      })
      .expect(201);
    const gid = created.body.id as string;
    expect(created.body).toMatchObject({ id: gid, displayName, members: [] });

    const read = await s.get(`/Groups/${gid}?excludedAttributes=members`).expect(200);
    expect(read.body).not.toHaveProperty('members');
    expect(read.body).toMatchObject({ id: gid, displayName });

    const byName = await s
      .get(`/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${displayName.toLowerCase()}"`)}`)
      .expect(200);
    expect(byName.body.totalResults).toBe(1);
    expect(byName.body.Resources[0]).not.toHaveProperty('members');

    const newName = `${randomUUID()}updatedDisplayName`;
    // Entra sends no attributes / excludedAttributes: 204 No Content, no body (decision 0133).
    const renamed = await s.patch(`/Groups/${gid}`, patch([{ op: 'Replace', path: 'displayName', value: newName }])).expect(204);
    expect(renamed.text).toBe('');

    await s
      .patch(
        `/Groups/${gid}`,
        patch([
          {
            op: 'Add',
            path: 'members',
            value: [
              { $ref: null, value: a.id },
              { $ref: null, value: b.id },
            ],
          },
        ]),
      )
      .expect(204);

    const membership = (uid: string) =>
      s.get(`/Groups?filter=${encodeURIComponent(`id eq "${gid}" and members[value eq "${uid}"]`)}&excludedAttributes=members`).expect(200);
    expect((await membership(a.id)).body.totalResults).toBe(1);

    // Entra's legacy removal: path "members" with a value array removes only those.
    await s.patch(`/Groups/${gid}`, patch([{ op: 'Remove', path: 'members', value: [{ $ref: null, value: a.id }] }])).expect(204);
    const removed = await s.get(`/Groups/${gid}`).expect(200);
    expect(removed.body.displayName).toBe(newName);
    expect(removed.body.members.map((m: { value: string }) => m.value)).toEqual([b.id]);
    expect((await membership(a.id)).body.totalResults).toBe(0);
    expect((await membership(b.id)).body.totalResults).toBe(1);

    await s.delete(`/Groups/${gid}`).expect(204);
    await s.get(`/Groups/${gid}`).expect(404);
  });

  it('removes all memberships of a deleted user', async () => {
    const u = await entraCreates(`${randomUUID()}@contoso.com`);
    const g = await s
      .post('/Groups', { schemas: [GROUP_SCHEMA], displayName: `G ${randomUUID()}`, members: [{ value: u.id }] })
      .expect(201);
    expect(g.body.members).toHaveLength(1);
    await s.delete(`/Users/${u.id}`).expect(204);
    const after = await s.get(`/Groups/${g.body.id}`).expect(200);
    expect(after.body.members).toEqual([]);
  });
});
