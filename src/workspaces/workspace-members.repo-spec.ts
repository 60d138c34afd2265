import { aDeveloperRow, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { WorkspaceMembersRepository } from './workspace-members.repository';

describe('WorkspaceMembersRepository', () => {
  let members: WorkspaceMembersRepository;
  const db = repositoriesForSuite([WorkspaceMembersRepository], (booted) => (members = booted));

  /** The developer's memberships in any workspace: what a removal took away, whoever asked. */
  const membershipsOf = async (developerId: string) =>
    Number(
      (await db.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM workspace_members WHERE developer_id = $1', [developerId]))[0]
        .n,
    );

  it('adds a member once (a second add changes nothing) and lists members with their accounts, oldest first', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const [owner, member] = [await aDeveloperRow(db.dataSource), await aDeveloperRow(db.dataSource)];
    expect(await db.dataSource.transaction((tx) => members.add(tx, ws, owner, 'owner'))).toBeInstanceOf(Date);
    expect(await db.dataSource.transaction((tx) => members.add(tx, ws, member, 'member'))).toBeInstanceOf(Date);
    expect(await db.dataSource.transaction((tx) => members.add(tx, ws, member, 'owner'))).toBeNull();
    const listed = await members.listWithDevelopers(ws);
    expect(listed.map((m) => [m.developerId, m.role])).toEqual([
      [owner, 'owner'],
      [member, 'member'],
    ]);
    expect(listed[0].email).toMatch(/@example\.test$/);
    expect(listed[0].name).toBe('Repo Test');
  });

  it('locks every membership of the workspace and removes one', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const [a, b] = [await aDeveloperRow(db.dataSource), await aDeveloperRow(db.dataSource)];
    await db.dataSource.transaction(async (tx) => {
      await members.add(tx, ws, a, 'owner');
      await members.add(tx, ws, b, 'member');
    });
    await db.dataSource.transaction(async (tx) => {
      expect((await members.lockAll(tx, ws)).map((m) => m.developerId).sort()).toEqual([a, b].sort());
      await members.remove(tx, ws, b);
    });
    expect((await members.listWithDevelopers(ws)).map((m) => m.developerId)).toEqual([a]);
  });

  itKeepsTheTenantContract('workspace_members', db, {
    create: async (workspaceId) => {
      const developerId = await aDeveloperRow(db.dataSource);
      await db.dataSource.transaction((tx) => members.add(tx, workspaceId, developerId, 'member'));
      return developerId;
    },
    read: async (workspaceId, developerId) => (await members.listWithDevelopers(workspaceId)).find((m) => m.developerId === developerId),
    delete: async (workspaceId, developerId) => {
      const before = await membershipsOf(developerId);
      await db.dataSource.transaction((tx) => members.remove(tx, workspaceId, developerId));
      return (await membershipsOf(developerId)) < before;
    },
  });
});
