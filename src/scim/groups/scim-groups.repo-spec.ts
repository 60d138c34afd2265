import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { parseFilter } from '../filter/parser';
import { ScimUsersRepository } from '../users/scim-users.repository';
import { ScimGroupsRepository } from './scim-groups.repository';

describe('ScimGroupsRepository', () => {
  let groups: ScimGroupsRepository;
  let users: ScimUsersRepository;
  const db = repositoriesForSuite([ScimGroupsRepository, ScimUsersRepository], (...booted) => ([groups, users] = booted));

  const aGroup = (workspaceId: string, name = `g-${randomUUID().slice(0, 8)}`) =>
    db.dataSource.transaction(async (t) => (await groups.insert(t, workspaceId, name))!);
  const aUser = async (workspaceId: string) =>
    (await users.insert(
      null,
      workspaceId,
      randomUUID(),
      { email: `m-${randomUUID().slice(0, 8)}@example.test`, firstName: 'M', lastName: 'E', isActive: true },
      [],
    ))!;

  itKeepsTheTenantContract('SCIM groups', db, {
    create: async (workspaceId) => (await aGroup(workspaceId)).id,
    read: (workspaceId, id) => groups.find(workspaceId, id),
    update: (workspaceId, id) =>
      db.dataSource.transaction(
        async (t) => (await groups.rename(t, workspaceId, id, { displayName: `renamed-${randomUUID()}` })) !== undefined,
      ),
    delete: (workspaceId, id) => db.dataSource.transaction(async (t) => (await groups.delete(t, workspaceId, id)) !== undefined),
  });

  it('refuses a second group of the same displayName in a workspace, case-insensitively', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    await aGroup(ws, 'Engineering');
    expect(await db.dataSource.transaction((t) => groups.insert(t, ws, 'ENGINEERING'))).toBeUndefined();
  });

  it('answers what a rename replaced, and nothing when the group already has the name', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const g = await aGroup(ws, 'Before');
    const renamed = await db.dataSource.transaction((t) => groups.rename(t, ws, g.id, { displayName: 'After', externalId: 'ext-1' }));
    expect(renamed).toEqual({ previousDisplayName: 'Before', previousExternalId: null });
    expect(await db.dataSource.transaction((t) => groups.rename(t, ws, g.id, { displayName: 'After' }))).toBeUndefined();
    expect(await groups.find(ws, g.id)).toMatchObject({ displayName: 'After', externalId: 'ext-1' });
  });

  it('adds only the workspace’s own users as members, and never another workspace’s group', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const g = await aGroup(ws);
    const [mine, theirs] = [await aUser(ws), await aUser(other)];
    const added = await db.dataSource.transaction((t) => groups.applyStep(t, ws, g.id, { kind: 'add', userIds: [mine.id, theirs.id] }));
    expect(added).toEqual({ added: [{ userId: mine.id, email: mine.email }], removed: [] });
    expect(await groups.members(ws, [g.id])).toEqual([
      { groupId: g.id, userId: mine.id, email: mine.email, firstName: 'M', lastName: 'E' },
    ]);
    expect(await groups.members(other, [g.id])).toEqual([]);
    const intruder = await db.dataSource.transaction((t) => groups.applyStep(t, other, g.id, { kind: 'add', userIds: [theirs.id] }));
    expect(intruder).toEqual({ added: [], removed: [] });
    const removedByOther = await db.dataSource.transaction((t) => groups.applyStep(t, other, g.id, { kind: 'removeAll' }));
    expect(removedByOther).toEqual({ added: [], removed: [] });
    expect(await groups.members(ws, [g.id])).toHaveLength(1);
  });

  it('removes members by a value filter, and a user from every group of its workspace', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const [g1, g2] = [await aGroup(ws), await aGroup(ws)];
    const [a, b] = [await aUser(ws), await aUser(ws)];
    await db.dataSource.transaction(async (t) => {
      await groups.applyStep(t, ws, g1.id, { kind: 'add', userIds: [a.id, b.id] });
      await groups.applyStep(t, ws, g2.id, { kind: 'add', userIds: [a.id] });
    });
    const filtered = await db.dataSource.transaction((t) =>
      groups.applyStep(t, ws, g1.id, { kind: 'removeWhere', filter: parseFilter(`value eq "${b.id}"`) }),
    );
    expect(filtered).toEqual({ added: [], removed: [{ userId: b.id, email: b.email }] });
    expect((await db.dataSource.transaction((t) => groups.removeUserFromAll(t, ws, a.id))).sort()).toEqual([g1.id, g2.id].sort());
    expect(await groups.members(ws, [g1.id, g2.id])).toEqual([]);
  });

  it('lists the workspace’s groups, filtered, by offset and by cursor', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const mine = [await aGroup(ws, 'Alpha'), await aGroup(ws, 'Beta')];
    await aGroup(other, 'Alpha');
    expect((await groups.pages(ws, undefined).byOffset(0, 10)).rows.map((r) => r.id)).toEqual(mine.map((g) => g.id));
    expect(await groups.pages(ws, parseFilter('displayName eq "alpha"')).byOffset(0, 10)).toMatchObject({
      total: 1,
      rows: [{ id: mine[0].id }],
    });
    const first = await groups.pages(ws, undefined).after(null, 1);
    expect(first).toMatchObject({ total: 2, rows: [{ id: mine[0].id }] });
    const next = await groups.pages(ws, undefined).after({ kind: 'g', createdUs: first.rows[0].pageKey, id: mine[0].id }, 1);
    expect(next.rows.map((r) => r.id)).toEqual([mine[1].id]);
  });
});
