import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../support/app';
import { aScimTenant, aScimUser, GROUP_SCHEMA, LIST_RESPONSE, PATCH_OP, SCIM_JSON, ScimTenant, USER_SCHEMA } from './scim-support';

/**
 * The request sequence Okta's SCIM 2.0 connector sends through a provisioning
 * cycle (developer.okta.com "SCIM 2.0 protocol reference"), asserting what Okta reads.
 */
describe('Okta provisioning cycle', () => {
  let t: TestApp;
  let s: ScimTenant;
  beforeAll(async () => {
    t = await createTestApp();
    s = await aScimTenant(t);
  });
  afterAll(() => t.close());

  const filter = (f: string) => `/Users?filter=${encodeURIComponent(f)}&startIndex=1&count=100`;

  it('passes the connection test with a random userName filter', async () => {
    const res = await s.get(`/Users?filter=${encodeURIComponent(`userName eq "${randomUUID()}"`)}&startIndex=1&count=1`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(res.body).toEqual({ schemas: [LIST_RESPONSE], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
  });

  it('creates, finds, reads, updates, deactivates and reactivates a user', async () => {
    const userName = `dade.murphy.${randomUUID().slice(0, 6)}@example.com`;
    const lookup = await s.get(filter(`userName eq "${userName}"`)).expect(200);
    expect(lookup.body.totalResults).toBe(0);

    const created = await s
      .post('/Users', {
        schemas: [USER_SCHEMA],
        userName,
        name: { givenName: 'Dade', familyName: 'Murphy' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        displayName: 'Dade Murphy',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      })
      .expect(201);
    const id = created.body.id as string;
    expect(created.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(created.headers.location).toBe(created.body.meta.location);
    expect(created.headers.location).toBe(`${t.baseUrl}/scim/v2/Users/${id}`);
    expect(created.headers.etag).toBeUndefined();
    expect(created.body).toMatchObject({
      schemas: [USER_SCHEMA],
      id,
      externalId: id,
      userName,
      name: { givenName: 'Dade', familyName: 'Murphy', formatted: 'Dade Murphy' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(created.body).not.toHaveProperty('password');

    const found = await s.get(filter(`userName eq "${userName.toUpperCase()}"`)).expect(200);
    expect(found.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
    expect(found.body.Resources[0].id).toBe(id);

    const read = await s.get(`/Users/${id}`).expect(200);
    expect(read.body).toEqual(created.body);

    const put = await s
      .put(`/Users/${id}`, {
        schemas: [USER_SCHEMA],
        id,
        userName,
        name: { givenName: 'Crash', familyName: 'Override' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        active: true,
      })
      .expect(200);
    expect(put.body.name).toEqual({ givenName: 'Crash', familyName: 'Override', formatted: 'Crash Override' });
    expect(Date.parse(put.body.meta.lastModified)).toBeGreaterThanOrEqual(Date.parse(created.body.meta.lastModified));

    const off = await s
      .patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] })
      .expect(200);
    expect(off.body).toMatchObject({ id, active: false, userName });

    const on = await s.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] }).expect(200);
    expect(on.body.active).toBe(true);
  });

  it('answers a duplicate userName, in any case, with 409 uniqueness', async () => {
    const user = await aScimUser(s);
    const res = await s
      .post('/Users', { schemas: [USER_SCHEMA], userName: (user.userName as string).toUpperCase(), active: true })
      .expect(409);
    expect(res.body).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });

  it('pushes a group, renames it, adds and removes members, and deletes it', async () => {
    const alice = await aScimUser(s);
    const bob = await aScimUser(s);
    const displayName = `Engineering ${randomUUID().slice(0, 6)}`;

    const none = await s.get(`/Groups?filter=${encodeURIComponent(`displayName eq "${displayName}"`)}&startIndex=1&count=100`).expect(200);
    expect(none.body.totalResults).toBe(0);

    const created = await s.post('/Groups', { schemas: [GROUP_SCHEMA], displayName, members: [] }).expect(201);
    const gid = created.body.id as string;
    expect(created.headers.location).toBe(`${t.baseUrl}/scim/v2/Groups/${gid}`);
    expect(created.body).toMatchObject({
      schemas: [GROUP_SCHEMA],
      id: gid,
      displayName,
      members: [],
      meta: { resourceType: 'Group', location: created.headers.location },
    });

    const read = await s.get(`/Groups/${gid}`).expect(200);
    expect(read.body.displayName).toBe(displayName);

    const renamed = await s
      .patch(`/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { id: gid, displayName: `${displayName} (renamed)` } }],
      })
      .expect(204);
    // Okta's shape (no attributes / excludedAttributes) gets 204 No Content; a GET shows the change (decision 0133).
    expect(renamed.text).toBe('');
    expect((await s.get(`/Groups/${gid}`).expect(200)).body.displayName).toBe(`${displayName} (renamed)`);

    await s
      .patch(`/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'add',
            path: 'members',
            value: [
              { value: alice.id, display: alice.userName },
              { value: bob.id, display: bob.userName },
            ],
          },
        ],
      })
      .expect(204);
    const added = await s.get(`/Groups/${gid}`).expect(200);
    expect(added.body.members.map((m: { value: string }) => m.value)).toEqual([alice.id, bob.id]);
    expect(added.body.members[0]).toEqual({
      value: alice.id,
      display: 'Test User',
      type: 'User',
      $ref: `${t.baseUrl}/scim/v2/Users/${alice.id}`,
    });

    await s
      .patch(`/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${alice.id}"]` }] })
      .expect(204);
    const removed = await s.get(`/Groups/${gid}`).expect(200);
    expect(removed.body.members.map((m: { value: string }) => m.value)).toEqual([bob.id]);

    await s.delete(`/Groups/${gid}`).expect(204, '');
    const gone = await s.get(`/Groups/${gid}`).expect(404);
    expect(gone.body).toMatchObject({ status: '404' });
    expect(gone.headers['content-type']).toMatch(/^application\/scim\+json/);
  });

  it('accepts plain application/json bodies too', async () => {
    const res = await t
      .http()
      .post('/scim/v2/Users')
      .set('Authorization', `Bearer ${s.token}`)
      .set('Content-Type', 'application/json')
      .send({ schemas: [USER_SCHEMA], userName: `json.${randomUUID().slice(0, 6)}@example.com` })
      .expect(201);
    expect(res.headers['content-type']).toContain(SCIM_JSON);
  });
});
