import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, aWorkspace, uniqueEmail, TestDeveloper, TestWorkspace } from '../support/factories';
import { aScimToken, GROUP_SCHEMA, scimClient, USER_SCHEMA } from '../scim/scim-support';

interface AuditRow {
  event_type: string;
  actor_type: string;
  actor_id: string | null;
  target_id: string | null;
  metadata: Record<string, unknown>;
}

describe('the developer directory API: people and groups of a workspace', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  let scim: ReturnType<typeof scimClient>;
  let scimTokenId: string;
  let ada: { id: string; email: string };
  let grace: { id: string; email: string };
  let groupId: string;

  beforeAll(async () => {
    t = await createTestApp();
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
    const minted = await aScimToken(t, dev, ws, 'Okta production');
    scimTokenId = minted.id;
    scim = scimClient(t, minted.token);
    const push = async (given: string, family: string) => {
      const email = uniqueEmail(given.toLowerCase());
      const res = await scim.post('/Users', {
        schemas: [USER_SCHEMA],
        userName: email,
        name: { givenName: given, familyName: family },
        active: true,
      });
      expect(res.status).toBe(201);
      return { id: res.body.id as string, email };
    };
    ada = await push('Ada', 'Lovelace');
    grace = await push('Grace', 'Hopper');
    const group = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Engineering', members: [{ value: ada.id }] });
    expect(group.status).toBe(201);
    groupId = group.body.id as string;
  }, 60_000);
  afterAll(() => t?.close());

  const users = (query: Record<string, string | number>, as = dev) =>
    t
      .http()
      .get('/developer/directory/users/')
      .set(as.auth)
      .query({ workspace_id: ws.id, ...query });
  const audit = async (query: Record<string, string>): Promise<AuditRow[]> => {
    const res = await t
      .http()
      .get('/developer/audit/')
      .set(dev.auth)
      .query({ workspace_id: ws.id, ...query })
      .expect(200);
    return res.body.results as AuditRow[];
  };

  it('lists what SCIM pushed with emails, names and status, in email order', async () => {
    const res = await users({}).expect(200);
    const listed = res.body.results as Array<Record<string, unknown>>;
    expect(listed.map((u) => u.email)).toEqual([ada.email, grace.email].sort());
    expect(listed.find((u) => u.id === ada.id)).toMatchObject({
      email: ada.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      active: true,
      email_verified: true,
      has_password: false,
      application: null,
    });
    expect(res.body.next_cursor).toBeNull();
    expect(JSON.stringify(res.body)).not.toContain('password_hash');
  });

  it('searches by part of an email or a name, case-insensitively, with wildcards taken literally', async () => {
    expect((await users({ search: 'HOPPER' }).expect(200)).body.results.map((u: { id: string }) => u.id)).toEqual([grace.id]);
    expect((await users({ search: 'ada lovelace' }).expect(200)).body.results.map((u: { id: string }) => u.id)).toEqual([ada.id]);
    expect((await users({ search: ada.email.slice(0, 10) }).expect(200)).body.results.map((u: { id: string }) => u.id)).toEqual([ada.id]);
    expect((await users({ search: '%' }).expect(200)).body.results).toEqual([]);
  });

  it('pages with a cursor, and refuses a cursor it did not give with a 400', async () => {
    const first = await users({ limit: 1 }).expect(200);
    expect(first.body.results).toHaveLength(1);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await users({ limit: 1, cursor: first.body.next_cursor as string }).expect(200);
    expect(second.body.results).toHaveLength(1);
    expect(second.body.results[0].id).not.toBe(first.body.results[0].id);
    expect(second.body.next_cursor).toBeNull();
    const bad = await users({ cursor: 'not-a-cursor' }).expect(400);
    expect(bad.body.error).toBe('validation_failed');
    expect((await users({ limit: 0 }).expect(400)).body.error).toBe('validation_failed');
  });

  it('shows one person with their groups, sessions and second factors', async () => {
    const res = await t.http().get(`/developer/directory/users/${ada.id}`).set(dev.auth).query({ workspace_id: ws.id }).expect(200);
    expect(res.body.user).toMatchObject({ id: ada.id, email: ada.email });
    expect(res.body.groups).toEqual([expect.objectContaining({ id: groupId, display_name: 'Engineering' })]);
    expect(res.body.sessions).toEqual([]);
    expect(res.body.factors).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
  });

  it('lists groups with their members', async () => {
    const res = await t.http().get('/developer/directory/groups/').set(dev.auth).query({ workspace_id: ws.id }).expect(200);
    expect(res.body.results).toEqual([
      expect.objectContaining({
        id: groupId,
        display_name: 'Engineering',
        member_count: 1,
        members: [{ id: ada.id, email: ada.email, name: 'Ada Lovelace' }],
      }),
    ]);
    expect(
      (await t.http().get('/developer/directory/groups/').set(dev.auth).query({ workspace_id: ws.id, search: 'nothing' })).body.results,
    ).toEqual([]);
  });

  it('adds a person for developers without SCIM: listed without a password, audited as user_create naming the email', async () => {
    const email = uniqueEmail('linus');
    const res = await t
      .http()
      .post('/developer/directory/users/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, email: `  ${email.toUpperCase()} `, first_name: 'Linus', last_name: 'Torvalds' })
      .expect(201);
    expect(res.body).toMatchObject({
      email,
      first_name: 'Linus',
      active: true,
      email_verified: false,
      has_password: false,
      application: null,
    });
    expect((await users({ search: 'torvalds' }).expect(200)).body.results.map((u: { id: string }) => u.id)).toEqual([res.body.id]);
    const [row] = await audit({ event_type: 'user_create' });
    expect(row).toMatchObject({ actor_type: 'developer', actor_id: dev.id, target_id: res.body.id });
    expect(row.metadata.target_email).toBe(email);

    const again = await t.http().post('/developer/directory/users/').set(dev.auth).send({ workspace_id: ws.id, email }).expect(409);
    expect(again.body.error).toBe('email_taken');
    const invalid = await t
      .http()
      .post('/developer/directory/users/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, email: 'not an email' })
      .expect(400);
    expect(invalid.body.details).toHaveProperty('email');
    const long = await t
      .http()
      .post('/developer/directory/users/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, email: uniqueEmail('long'), first_name: 'x'.repeat(101) })
      .expect(400);
    expect(long.body.details).toHaveProperty('first_name');
  });

  it("names the SCIM token by its label and the person by their email in the audit log; a person's trail is their rows", async () => {
    const pushed = await audit({ event_type: 'scim_user_create', target_id: ada.id });
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({ actor_type: 'api_token', actor_id: scimTokenId });
    expect(pushed[0].metadata).toMatchObject({ actor_label: 'Okta production', target_email: ada.email });

    await eventually(async () => {
      const trail = await audit({ subject_id: ada.id });
      expect(trail.map((r) => r.event_type)).toEqual(expect.arrayContaining(['scim_user_create']));
      expect(trail.every((r) => r.actor_id === ada.id || r.target_id === ada.id)).toBe(true);
    });
  });

  it("another workspace's people and groups are invisible: 404 for its workspace and for its user ids", async () => {
    const stranger = await aDeveloper(t);
    const theirs = await aWorkspace(t, stranger);
    expect((await users({}, stranger).expect(404)).body.error).toBe('not_found');
    await t.http().get('/developer/directory/groups/').set(stranger.auth).query({ workspace_id: ws.id }).expect(404);
    await t.http().get(`/developer/directory/users/${ada.id}`).set(stranger.auth).query({ workspace_id: ws.id }).expect(404);
    await t
      .http()
      .post('/developer/directory/users/')
      .set(stranger.auth)
      .send({ workspace_id: ws.id, email: uniqueEmail('x') })
      .expect(404);
    // Their own workspace asked for our person: no such user there.
    await t.http().get(`/developer/directory/users/${ada.id}`).set(stranger.auth).query({ workspace_id: theirs.id }).expect(404);
    expect(
      (await t.http().get('/developer/directory/users/').set(stranger.auth).query({ workspace_id: theirs.id }).expect(200)).body.results,
    ).toEqual([]);
    await t.http().get('/developer/directory/users/not-a-uuid').set(dev.auth).query({ workspace_id: ws.id }).expect(404);
    await t.http().get('/developer/directory/users/').query({ workspace_id: ws.id }).expect(401);
  });
});
