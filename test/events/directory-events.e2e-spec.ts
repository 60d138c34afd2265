import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, aWorkspace } from '../support/factories';
import { aScimGroup, aScimTenant, aScimUser, aUserName, GROUP_SCHEMA, PATCH_OP, ScimTenant, userBody } from '../scim/scim-support';
import { FeedEvent, readFeed } from './feed-support';

/** Typed directory events with full objects, in the feed (issue 37, docs/events.md). */
describe('directory events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const feedOf = async (s: ScimTenant, after = 0) => (await readFeed(t, s.dev, s.ws.id, after)).events;
  /** Waits until the feed holds `count` events after `after`, and answers them. */
  const eventsAfter = (s: ScimTenant, after: number, count: number) =>
    eventually(async () => {
      const events = await feedOf(s, after);
      expect(events.length).toBeGreaterThanOrEqual(count);
      return events;
    });
  const types = (events: FeedEvent[]) => events.map((e) => e.type);

  it('carries each user as SCIM GET shows it at that moment, and says which attributes an update changed', async () => {
    const s = await aScimTenant(t);
    const created = (await s.post('/Users', userBody(aUserName('ada'))).expect(201)).body;
    const [first] = await eventsAfter(s, 0, 1);
    expect(first).toMatchObject({ seq: 1, type: 'directory.user.created', workspace_id: s.ws.id });
    expect(first.data).toEqual((await s.get(`/Users/${created.id}`).expect(200)).body);

    const patched = (
      await s
        .patch(`/Users/${created.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.familyName', value: 'Lovelace' }] })
        .expect(200)
    ).body;
    const [updated] = await eventsAfter(s, 1, 1);
    expect(updated).toMatchObject({ seq: 2, type: 'directory.user.updated', changed: ['name.familyName'] });
    expect(updated.data).toEqual(patched);
    expect(updated.data).toEqual((await s.get(`/Users/${created.id}`).expect(200)).body);

    await s
      .patch(`/Users/${created.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] })
      .expect(200);
    const [deactivated] = await eventsAfter(s, 2, 1);
    expect(deactivated).toMatchObject({ type: 'directory.user.deactivated', changed: ['active'], data: { id: created.id, active: false } });

    // An IdP re-provisions a person it deactivated with a POST: the same user comes back.
    await s.post('/Users', userBody(created.userName as string, { name: { givenName: 'Ada', familyName: 'King' } })).expect(201);
    const [reactivated] = await eventsAfter(s, 3, 1);
    expect(reactivated).toMatchObject({ type: 'directory.user.reactivated', data: { id: created.id, active: true } });
    expect(reactivated.changed).toEqual(expect.arrayContaining(['active', 'name.familyName']));
    expect(reactivated.data).toEqual((await s.get(`/Users/${created.id}`).expect(200)).body);
  });

  it('a PATCH that changes nothing writes no event', async () => {
    const s = await aScimTenant(t);
    const user = await aScimUser(s);
    await eventsAfter(s, 0, 1);
    await s.patch(`/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: true }] }).expect(200);
    await s
      .patch(`/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.familyName', value: 'Z' }] })
      .expect(200);
    const events = await eventsAfter(s, 0, 2);
    expect(types(events)).toEqual(['directory.user.created', 'directory.user.updated']);
  });

  it('names group and user in membership events, one per member of a PATCH, and follows renames and deletion', async () => {
    const s = await aScimTenant(t);
    const [a, b, c] = [await aScimUser(s), await aScimUser(s), await aScimUser(s)];
    const group = await aScimGroup(s, `eng-${a.id.slice(0, 6)}`, [a.id]);
    const afterCreate = await eventsAfter(s, 0, 5);
    expect(types(afterCreate).slice(3)).toEqual(['directory.group.created', 'directory.group.user_added']);
    const groupCreated = afterCreate[3];
    const { members: _members, ...groupWithoutMembers } = (await s.get(`/Groups/${group.id}`).expect(200)).body;
    expect(groupCreated.data).toEqual(groupWithoutMembers);
    expect(afterCreate[4].data).toEqual({
      group: { id: group.id, displayName: group.displayName },
      user: { id: a.id, userName: a.userName },
    });

    await s
      .patch(`/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'add', path: 'members', value: [{ value: b.id }, { value: c.id }] },
          { op: 'remove', path: `members[value eq "${a.id}"]` },
          { op: 'replace', path: 'displayName', value: 'Engineering' },
        ],
      })
      .expect(204);
    const patchEvents = await eventsAfter(s, 5, 4);
    expect(types(patchEvents)).toEqual([
      'directory.group.updated',
      'directory.group.user_removed',
      'directory.group.user_added',
      'directory.group.user_added',
    ]);
    expect(patchEvents[0]).toMatchObject({ changed: ['displayName'], data: { id: group.id, displayName: 'Engineering' } });
    expect(patchEvents.slice(1).map((e) => e.data)).toEqual([
      { group: { id: group.id, displayName: 'Engineering' }, user: { id: a.id, userName: a.userName } },
      { group: { id: group.id, displayName: 'Engineering' }, user: { id: b.id, userName: b.userName } },
      { group: { id: group.id, displayName: 'Engineering' }, user: { id: c.id, userName: c.userName } },
    ]);

    // DELETE /Users deactivates and takes the user out of every group: both are events.
    await s.delete(`/Users/${b.id}`).expect(204);
    const deleteEvents = await eventsAfter(s, 9, 2);
    expect(types(deleteEvents)).toEqual(['directory.user.deactivated', 'directory.group.user_removed']);
    expect(deleteEvents[1].data).toEqual({ group: { id: group.id, displayName: 'Engineering' }, user: { id: b.id, userName: b.userName } });

    await s.delete(`/Groups/${group.id}`).expect(204);
    const [deleted] = await eventsAfter(s, 11, 1);
    expect(deleted).toMatchObject({ seq: 12, type: 'directory.group.deleted', data: { id: group.id, displayName: 'Engineering' } });
  });

  it('a one-member PATCH as Okta and Entra send it writes one event naming group and user, and none when it changes nothing', async () => {
    const s = await aScimTenant(t);
    const [a, b] = [await aScimUser(s), await aScimUser(s)];
    const group = await aScimGroup(s, `ops-${a.id.slice(0, 6)}`);
    await eventsAfter(s, 0, 3);
    const patch = (operation: Record<string, unknown>) =>
      s.patch(`/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [operation] }).expect(204);
    await patch({ op: 'add', path: 'members', value: [{ value: a.id }] }); // Okta
    await patch({ op: 'Add', path: 'members', value: [{ value: b.id }] }); // Entra
    await patch({ op: 'add', path: 'members', value: [{ value: b.id }] }); // already a member: nothing changes
    await patch({ op: 'remove', path: `members[value eq "${a.id}"]` }); // Okta
    await patch({ op: 'Remove', path: 'members', value: [{ value: b.id }] }); // Entra
    await patch({ op: 'remove', path: `members[value eq "${a.id}"]` }); // no longer a member: nothing changes
    await patch({ op: 'add', path: 'members', value: [{ value: a.id.toUpperCase() }] }); // the id in capitals is the same user
    const events = await eventsAfter(s, 3, 5);
    expect(types(events)).toEqual([
      'directory.group.user_added',
      'directory.group.user_added',
      'directory.group.user_removed',
      'directory.group.user_removed',
      'directory.group.user_added',
    ]);
    const named = (u: { id: string; userName: unknown }) => ({
      group: { id: group.id, displayName: group.displayName },
      user: { id: u.id, userName: u.userName },
    });
    expect(events.map((e) => e.data)).toEqual([named(a), named(b), named(a), named(b), named(a)]);
    const audited = (await t.dataSource.query(
      `SELECT metadata FROM audit_events WHERE workspace_id = $1 AND event_type = 'scim_group_update' AND target_id = $2 ORDER BY created_at`,
      [s.ws.id, group.id],
    )) as { metadata: { members_added: number; members_removed: number } }[];
    expect(audited.map((r) => [r.metadata.members_added, r.metadata.members_removed])).toEqual([
      [1, 0],
      [1, 0],
      [0, 1],
      [0, 1],
      [1, 0],
    ]);
    // A group the workspace does not have is 404, whether or not the user is one of its users.
    await s
      .patch(`/Groups/${b.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: a.id }] }] })
      .expect(404);
  });

  it('pages by after and limit, filters by type, and answers the whole directory with the seq it reflects', async () => {
    const s = await aScimTenant(t);
    const users = [await aScimUser(s), await aScimUser(s), await aScimUser(s)];
    const group = await aScimGroup(s, `ops-${users[0].id.slice(0, 6)}`, [users[0].id, users[1].id]);
    await eventsAfter(s, 0, 6);

    const page = await t.http().get('/developer/events/').query({ workspace_id: s.ws.id, after: 1, limit: 2 }).set(s.dev.auth).expect(200);
    expect(page.body.results.map((e: FeedEvent) => e.seq)).toEqual([2, 3]);
    expect(page.body.next_after).toBe(3);
    const end = await t.http().get('/developer/events/').query({ workspace_id: s.ws.id, after: 6 }).set(s.dev.auth).expect(200);
    expect(end.body).toEqual({ results: [], next_after: 6 });

    const onlyMemberships = await readFeed(t, s.dev, s.ws.id, 0, { types: 'directory.group.user_added,directory.group.created' });
    expect(types(onlyMemberships.events)).toEqual(['directory.group.created', 'directory.group.user_added', 'directory.group.user_added']);
    const repeated = await t
      .http()
      .get(`/developer/events/?workspace_id=${s.ws.id}&types=directory.group.created&types=directory.user.created`)
      .set(s.dev.auth)
      .expect(200);
    expect(repeated.body.results).toHaveLength(4);

    const directory = (await t.http().get('/developer/directory/').query({ workspace_id: s.ws.id }).set(s.dev.auth).expect(200)).body;
    expect(directory.seq).toBe(6);
    expect(directory.users).toEqual(await Promise.all(users.map(async (u) => (await s.get(`/Users/${u.id}`).expect(200)).body)));
    const { members: _m, ...groupView } = (await s.get(`/Groups/${group.id}`).expect(200)).body;
    expect(directory.groups).toEqual([groupView]);
    expect(directory.memberships).toEqual([
      { group_id: group.id, user_id: users[0].id },
      { group_id: group.id, user_id: users[1].id },
    ]);
  });

  it('refuses bad parameters with 400 validation_failed and keeps each workspace to its members (404)', async () => {
    const s = await aScimTenant(t);
    await aScimUser(s);
    await eventsAfter(s, 0, 1);
    const get = (query: Record<string, unknown>) => t.http().get('/developer/events/').query(query).set(s.dev.auth);
    for (const bad of [
      { workspace_id: 'nope' },
      { workspace_id: s.ws.id, after: '-1' },
      { workspace_id: s.ws.id, after: '1e3' },
      { workspace_id: s.ws.id, limit: 1001 },
      { workspace_id: s.ws.id, limit: 0 },
      { workspace_id: s.ws.id, types: 'user.created' },
    ]) {
      const res = await get(bad).expect(400);
      expect(res.body.error).toBe('validation_failed');
    }
    await t.http().get('/developer/events/').query({ workspace_id: s.ws.id }).expect(401);

    const stranger = await aDeveloper(t);
    const theirs = await aWorkspace(t, stranger);
    for (const path of ['/developer/events/', '/developer/directory/']) {
      const res = await t.http().get(path).query({ workspace_id: s.ws.id }).set(stranger.auth).expect(404);
      expect(res.body.error).toBe('not_found');
      // Their own (empty) workspace answers, and shows nothing of the other one.
      const own = await t.http().get(path).query({ workspace_id: theirs.id }).set(stranger.auth).expect(200);
      expect(JSON.stringify(own.body)).not.toContain(s.ws.id);
    }
  });

  it('sends a group PUT that replaces the members as removals and additions', async () => {
    const s = await aScimTenant(t);
    const [a, b] = [await aScimUser(s), await aScimUser(s)];
    const group = await aScimGroup(s, `put-${a.id.slice(0, 6)}`, [a.id]);
    await eventsAfter(s, 0, 4);
    await s.put(`/Groups/${group.id}`, { schemas: [GROUP_SCHEMA], displayName: group.displayName, members: [{ value: b.id }] }).expect(200);
    const events = await eventsAfter(s, 4, 2);
    expect(types(events)).toEqual(['directory.group.user_removed', 'directory.group.user_added']);
    expect(events.map((e) => e.data.user!.id)).toEqual([a.id, b.id]);
  });
});
