import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, aScimUser, aUserName, ERROR_SCHEMA, PATCH_OP, USER_SCHEMA } from './scim-support';

/** What the scim2-tester compliance run found (issue 13, items 8, 10, 11 and the PATCH part of 15). */
describe('SCIM answers that say what happened', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());
  const patch = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

  describe('no PATCH answers 200 having silently done nothing (item 8)', () => {
    it.each([
      ['remove active', { op: 'remove', path: 'active' }, 'mutability'],
      ['remove the one email', { op: 'remove', path: 'emails[type eq "work"]' }, 'mutability'],
      ['remove emails.value', { op: 'remove', path: 'emails.value' }, 'mutability'],
      ['an email filter that matches no address', { op: 'add', path: 'emails[type eq "home"].value', value: 'h@example.com' }, 'noTarget'],
      [
        'emails without a primary entry',
        { op: 'replace', path: 'emails', value: [{ value: 'x@example.com', type: 'home' }] },
        'invalidValue',
      ],
      ['a type the stored address cannot have', { op: 'replace', path: 'emails[type eq "work"].type', value: 'home' }, 'invalidValue'],
    ])('refuses %s on a user with 400 %s and changes nothing', async (_, op, scimType) => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const res = await s.patch(`/Users/${u.id}`, patch(op)).expect(400);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType });
      const after = (await s.get(`/Users/${u.id}`).expect(200)).body;
      expect(after).toMatchObject({ active: true, userName: u.userName, emails: [{ value: u.userName }] });
      expect(after.meta.lastModified).toBe((u.meta as { lastModified: string }).lastModified);
    });

    it('still applies active through replace (the documented way to deactivate)', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const res = await s.patch(`/Users/${u.id}`, patch({ op: 'replace', path: 'active', value: false })).expect(200);
      expect(res.body.active).toBe(false);
    });

    it('refuses add or replace through a members value filter on a group with 400 invalidPath', async () => {
      const s = await aScimTenant(t);
      const [a, b] = [await aScimUser(s), await aScimUser(s)];
      const g = await aScimGroup(s, undefined, [a.id]);
      const res = await s
        .patch(`/Groups/${g.id}`, patch({ op: 'replace', path: `members[value eq "${a.id}"]`, value: [{ value: b.id }] }))
        .expect(400);
      expect(res.body).toMatchObject({ scimType: 'invalidPath' });
      expect((await s.get(`/Groups/${g.id}`).expect(200)).body.members.map((m: { value: string }) => m.value)).toEqual([a.id]);
    });
  });

  describe('an emails array without an entry flagged primary is treated alike by POST, PUT and PATCH (decision 0052)', () => {
    const body = (userName: string, emails: unknown[]) => ({ schemas: [USER_SCHEMA], userName, emails });

    it('refuses it on every verb with 400 invalidValue when it names an address other than the stored one, storing nothing', async () => {
      const s = await aScimTenant(t);
      const other = [{ value: 'someone.else@example.com', type: 'home' }];
      const userName = aUserName();
      const created = await s.post('/Users', body(userName, other)).expect(400);
      expect(created.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidValue' });
      expect(created.body.detail).toMatch(/no entry flagged primary/);
      expect((await s.get(`/Users?filter=userName eq "${userName}"`).expect(200)).body.totalResults).toBe(0);

      const u = await aScimUser(s);
      const put = await s.put(`/Users/${u.id}`, body(u.userName as string, other)).expect(400);
      expect(put.body).toMatchObject({ scimType: 'invalidValue', detail: created.body.detail });
      const patched = await s.patch(`/Users/${u.id}`, patch({ op: 'replace', path: 'emails', value: other })).expect(400);
      expect(patched.body).toMatchObject({ scimType: 'invalidValue', detail: created.body.detail });
      const after = (await s.get(`/Users/${u.id}`).expect(200)).body;
      expect(after.emails).toEqual([{ value: u.userName, type: 'work', primary: true }]);
      expect(after.meta.lastModified).toBe((u.meta as { lastModified: string }).lastModified);
    });

    it('accepts it on every verb when it only repeats the stored address', async () => {
      const s = await aScimTenant(t);
      const userName = aUserName();
      const same = [{ value: userName.toUpperCase(), type: 'work' }];
      const created = await s.post('/Users', body(userName, same)).expect(201);
      expect(created.body.emails).toEqual([{ value: userName, type: 'work', primary: true }]);
      const put = await s.put(`/Users/${created.body.id}`, { ...body(userName, same), name: { givenName: 'Put' } }).expect(200);
      expect(put.body).toMatchObject({ userName, name: { givenName: 'Put' } });
      const patched = await s.patch(`/Users/${created.body.id}`, patch({ op: 'replace', path: 'emails', value: same })).expect(200);
      expect(patched.body.emails).toEqual([{ value: userName, type: 'work', primary: true }]);
    });

    it('still lets the entry flagged primary win on every verb', async () => {
      const s = await aScimTenant(t);
      const [first, second, third] = [aUserName(), aUserName(), aUserName()];
      const primaryOf = (value: string) => [{ value, type: 'work', primary: true }];
      const created = await s.post('/Users', body(aUserName(), primaryOf(first))).expect(201);
      expect(created.body.userName).toBe(first);
      expect((await s.put(`/Users/${created.body.id}`, body(first, primaryOf(second))).expect(200)).body.userName).toBe(second);
      const patched = await s
        .patch(`/Users/${created.body.id}`, patch({ op: 'replace', path: 'emails', value: primaryOf(third) }))
        .expect(200);
      expect(patched.body.userName).toBe(third);
    });
  });

  describe('PATCH with an empty Operations list (item 15)', () => {
    it('is 400 invalidSyntax on users and groups (RFC 7644 §3.5.2: at least one operation)', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const g = await aScimGroup(s);
      for (const path of [`/Users/${u.id}`, `/Groups/${g.id}`]) {
        const res = await s.patch(path, { schemas: [PATCH_OP], Operations: [] }).expect(400);
        expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidSyntax' });
      }
    });
  });

  describe('empty complex attributes are left out (item 10)', () => {
    it('returns a user without a name with no "name" key, on create, read and list', async () => {
      const s = await aScimTenant(t);
      const userName = aUserName('noname');
      const created = await s.post('/Users', { schemas: [USER_SCHEMA], userName }).expect(201);
      expect(created.body).not.toHaveProperty('name');
      expect((await s.get(`/Users/${created.body.id}`).expect(200)).body).not.toHaveProperty('name');
      const listed = await s.get(`/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`).expect(200);
      expect(listed.body.Resources[0]).not.toHaveProperty('name');
      const named = await s.patch(`/Users/${created.body.id}`, patch({ op: 'add', path: 'name.givenName', value: 'Ann' })).expect(200);
      expect(named.body.name).toEqual({ givenName: 'Ann', formatted: 'Ann' });
    });
  });

  describe('a userName that is not an email address (item 11)', () => {
    it('is 400 invalidValue naming the rule when no primary email is sent, and stores nothing', async () => {
      const s = await aScimTenant(t);
      const res = await s.post('/Users', { schemas: [USER_SCHEMA], userName: 'jdoe' }).expect(400);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], scimType: 'invalidValue' });
      expect(res.body.detail).toMatch(/userName must be an email address.*sign-in email/);
      expect((await s.get('/Users').expect(200)).body.totalResults).toBe(0);
    });

    it('is accepted with a primary email, which becomes the stored userName (the spec rule)', async () => {
      const s = await aScimTenant(t);
      const email = aUserName('jdoe');
      const res = await s
        .post('/Users', { schemas: [USER_SCHEMA], userName: 'jdoe', emails: [{ value: email, primary: true, type: 'work' }] })
        .expect(201);
      expect(res.body).toMatchObject({ userName: email, emails: [{ value: email, primary: true, type: 'work' }] });
    });

    it('refuses a primary email that is not an email address, and a PUT or PATCH to such a userName', async () => {
      const s = await aScimTenant(t);
      const bad = await s
        .post('/Users', { schemas: [USER_SCHEMA], userName: aUserName(), emails: [{ value: 'not-an-address', primary: true }] })
        .expect(400);
      expect(bad.body).toMatchObject({ scimType: 'invalidValue' });
      const u = await aScimUser(s);
      await s.put(`/Users/${u.id}`, { schemas: [USER_SCHEMA], userName: 'jdoe' }).expect(400);
      const patched = await s.patch(`/Users/${u.id}`, patch({ op: 'replace', path: 'userName', value: 'jdoe' })).expect(400);
      expect(patched.body).toMatchObject({ scimType: 'invalidValue' });
      expect((await s.get(`/Users/${u.id}`).expect(200)).body.userName).toBe(u.userName);
    });
  });
});
