import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { DirectoryAccountsRepository } from './directory-accounts.repository';

describe('DirectoryAccountsRepository', () => {
  let accounts: DirectoryAccountsRepository;
  const db = repositoriesForSuite([DirectoryAccountsRepository], (booted) => (accounts = booted));

  const add = (workspaceId: string, email = `d-${randomUUID().slice(0, 8)}@example.test`, firstName = 'Dee', lastName = 'Rectory') =>
    db.dataSource.transaction((tx) => accounts.insert(tx, workspaceId, { email, firstName, lastName, now: new Date() }));

  itKeepsTheTenantContract('directory accounts', db, {
    create: async (workspaceId) => (await add(workspaceId))!.id,
    read: async (workspaceId, id) => {
      const byId = await accounts.byId(workspaceId, id);
      const listed = (await accounts.page(workspaceId, undefined, null, 100)).find((a) => a.id === id);
      expect(listed).toEqual(byId);
      return byId;
    },
  });

  it('adds a directory account without a password or an application, once per email in a workspace', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const other = await aWorkspaceRow(db.dataSource);
    const made = await add(ws, 'Same@Example.test');
    expect(made).toMatchObject({ email: 'same@example.test', hasPassword: false, application: null, isActive: true, emailVerified: false });
    expect(await add(ws, 'same@example.TEST')).toBeUndefined();
    expect(await add(other, 'same@example.test')).toBeDefined();
  });

  it('pages in email order after a position, and searches email and full name with LIKE wildcards taken literally', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const b = (await add(ws, 'b@example.test', 'Bea', 'Under_score'))!;
    const a = (await add(ws, 'a@example.test', 'Al', 'Percent'))!;
    const first = await accounts.page(ws, undefined, null, 1);
    expect(first.map((x) => x.id)).toEqual([a.id]);
    expect((await accounts.page(ws, undefined, { email: 'a@example.test', id: a.id }, 10)).map((x) => x.id)).toEqual([b.id]);
    expect((await accounts.page(ws, 'bea under_', null, 10)).map((x) => x.id)).toEqual([b.id]);
    expect(await accounts.page(ws, 'under%', null, 10)).toEqual([]);
    expect((await accounts.page(ws, 'A@EX', null, 10)).map((x) => x.id)).toEqual([a.id]);
  });
});
