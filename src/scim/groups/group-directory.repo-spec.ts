import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { ScimUsersRepository } from '../users/scim-users.repository';
import { GroupDirectoryRepository } from './group-directory.repository';
import { ScimGroupsRepository } from './scim-groups.repository';

describe('GroupDirectoryRepository', () => {
  let directory: GroupDirectoryRepository;
  let groups: ScimGroupsRepository;
  let users: ScimUsersRepository;
  const db = repositoriesForSuite(
    [GroupDirectoryRepository, ScimGroupsRepository, ScimUsersRepository],
    (...booted) => ([directory, groups, users] = booted),
  );

  const aGroup = async (workspaceId: string, name = `g-${randomUUID().slice(0, 8)}`) =>
    (await db.dataSource.transaction((tx) => groups.insert(tx, workspaceId, name)))!;

  itKeepsTheTenantContract('directory groups', db, {
    create: async (workspaceId) => (await aGroup(workspaceId)).id,
    read: async (workspaceId, id) => (await directory.page(workspaceId, undefined, null, 100)).find((g) => g.id === id),
  });

  it("pages groups by name and answers a user's groups in their workspace only", async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const other = await aWorkspaceRow(db.dataSource);
    const zeta = await aGroup(ws, 'Zeta');
    const alpha = await aGroup(ws, 'alpha');
    const user = (await users.insert(
      null,
      ws,
      randomUUID(),
      { email: `m-${randomUUID().slice(0, 8)}@example.test`, firstName: 'M', lastName: 'E', isActive: true },
      [],
    ))!;
    await db.dataSource.transaction((tx) => groups.applyStep(tx, ws, zeta.id, { kind: 'add', userIds: [user.id] }));
    expect((await directory.page(ws, undefined, null, 10)).map((g) => g.displayName)).toEqual(['alpha', 'Zeta']);
    expect((await directory.page(ws, undefined, { name: 'alpha', id: alpha.id }, 10)).map((g) => g.id)).toEqual([zeta.id]);
    expect((await directory.page(ws, 'ZET', null, 10)).map((g) => g.id)).toEqual([zeta.id]);
    expect((await directory.ofUser(ws, user.id)).map((g) => g.id)).toEqual([zeta.id]);
    expect(await directory.ofUser(other, user.id)).toEqual([]);
  });
});
