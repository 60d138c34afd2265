import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { parseFilter } from '../filter/parser';
import { ScimUsersRepository } from './scim-users.repository';

const state = (email = `u-${randomUUID().slice(0, 8)}@example.test`) => ({ email, firstName: 'Ada', lastName: 'Lovelace', isActive: true });

describe('ScimUsersRepository', () => {
  let users: ScimUsersRepository;
  const db = repositoriesForSuite([ScimUsersRepository], (booted) => (users = booted));

  const create = async (workspaceId: string, email?: string) => (await users.insert(null, workspaceId, randomUUID(), state(email), []))!;

  itKeepsTheTenantContract('SCIM users', db, {
    create: async (workspaceId) => (await create(workspaceId)).id,
    read: (workspaceId, id) => users.find(workspaceId, id),
    update: (workspaceId, id) => db.dataSource.transaction(async (tx) => (await users.update(tx, workspaceId, id, state())) !== undefined),
  });

  it('answers the row it inserted, typed from the entity', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const row = await create(ws, 'Grace@Example.test');
    expect(row).toEqual({
      id: expect.any(String),
      email: 'Grace@Example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      isActive: true,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await users.find(ws, row.id)).toEqual(row);
  });

  it('inserts nothing for a userName the workspace already has (case-insensitively), and another workspace may take it', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    await create(ws, 'same@example.test');
    expect(await users.insert(null, ws, randomUUID(), state('SAME@example.test'), [])).toBeUndefined();
    expect(await users.insert(null, other, randomUUID(), state('same@example.test'), [])).toBeDefined();
  });

  it('locks a user by userName only in its own workspace', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const row = await create(ws, 'locked@example.test');
    await db.dataSource.transaction(async (tx) => {
      expect((await users.lockByEmail(tx, ws, 'LOCKED@example.test'))?.id).toBe(row.id);
      expect(await users.lockByEmail(tx, other, 'locked@example.test')).toBeUndefined();
      expect(await users.lock(tx, other, row.id)).toBeUndefined();
    });
  });

  it('lists and counts only the workspace’s users, filtered, by offset and by cursor', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const mine = [await create(ws), await create(ws), await create(ws, 'findme@example.test')];
    await create(other, 'findme@example.test');
    const all = await users.pages(ws, undefined).byOffset(0, 10);
    expect(all.total).toBe(3);
    expect(all.rows.map((r) => r.id)).toEqual(mine.map((r) => r.id));
    const found = await users.pages(ws, parseFilter('userName eq "FINDME@example.test"')).byOffset(0, 10);
    expect(found).toEqual({ total: 1, rows: [mine[2]] });
    const first = await users.pages(ws, undefined).after(null, 2);
    expect(first.total).toBe(3);
    expect(first.rows.map((r) => r.id)).toEqual([mine[0].id, mine[1].id]);
    const last = first.rows[1];
    const next = await users.pages(ws, undefined).after({ kind: 'u', createdUs: last.pageKey, id: last.id }, 2);
    expect(next.rows.map((r) => r.id)).toEqual([mine[2].id]);
  });
});
