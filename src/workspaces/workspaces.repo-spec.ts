import { aDeveloperRow, aWorkspaceRow, repositoriesForSuite } from '../../test/support/repository';
import { WorkspaceMembersRepository } from './workspace-members.repository';
import { WorkspacesRepository } from './workspaces.repository';

describe('WorkspacesRepository and WorkspaceMembersRepository', () => {
  let workspaces: WorkspacesRepository;
  let members: WorkspaceMembersRepository;
  const db = repositoriesForSuite([WorkspacesRepository, WorkspaceMembersRepository], (...booted) => ([workspaces, members] = booted));

  it('gives a developer a role only in the workspaces they are a member of', async () => {
    const [ws, other, dev] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource), await aDeveloperRow(db.dataSource)];
    const joined = await db.dataSource.transaction((tx) => members.add(tx, ws, dev, 'owner'));
    expect(joined).toEqual(expect.any(Date));
    expect(await db.dataSource.transaction((tx) => members.add(tx, ws, dev, 'member'))).toBeNull();
    expect(await workspaces.role(null, ws, dev)).toBe('owner');
    expect(await workspaces.role(null, other, dev)).toBeNull();
  });

  it('lists only the developer’s workspaces, with their counts', async () => {
    const [ws, other, dev, peer] = [
      await aWorkspaceRow(db.dataSource, 'Mine'),
      await aWorkspaceRow(db.dataSource, 'Theirs'),
      await aDeveloperRow(db.dataSource),
      await aDeveloperRow(db.dataSource),
    ];
    await db.dataSource.transaction(async (tx) => {
      await members.add(tx, ws, dev, 'owner');
      await members.add(tx, ws, peer, 'member');
      await members.add(tx, other, peer, 'owner');
    });
    expect(await workspaces.listForDeveloper(dev)).toEqual([
      { id: ws, name: 'Mine', description: '', createdAt: expect.any(Date), memberCount: 2, databaseCount: 0 },
    ]);
    expect(await workspaces.findWithCounts(null, other)).toMatchObject({ id: other, name: 'Theirs', memberCount: 1 });
    expect((await members.listWithDevelopers(ws)).map((m) => m.developerId).sort()).toEqual([dev, peer].sort());
  });
});
