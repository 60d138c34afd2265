import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { DirectoryEventsRepository } from './directory-events.repository';

describe('DirectoryEventsRepository', () => {
  let events: DirectoryEventsRepository;
  const db = repositoriesForSuite([DirectoryEventsRepository], (booted) => (events = booted));

  const seal = () =>
    db.dataSource.transaction(async (tx) => {
      await events.lockSealer(tx);
      return events.seal(tx, 1000);
    });
  const aUserEvent = async (workspaceId: string) => {
    const id = randomUUID();
    await db.dataSource.transaction((tx) =>
      events.append(tx, {
        workspaceId,
        type: 'directory.user.created',
        resourceId: id,
        data: { id, userName: 'a@example.test' },
        changed: null,
      }),
    );
    await seal();
    return id;
  };
  const aGroupRow = async (workspaceId: string, name: string) =>
    (
      await db.dataSource.query<{ id: string }[]>(`INSERT INTO scim_groups (workspace_id, display_name) VALUES ($1, $2) RETURNING id`, [
        workspaceId,
        name,
      ])
    )[0].id;

  itKeepsTheTenantContract('directory events', db, {
    create: aUserEvent,
    read: async (workspaceId, resourceId) => (await events.page(workspaceId, 0, 1000, null)).find((e) => e.resourceId === resourceId),
  });

  it('numbers each workspace on its own, from 1, in the order events were written, and never renumbers', async () => {
    const [a, b] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const ids = [await aUserEvent(a), await aUserEvent(b), await aUserEvent(a)];
    expect((await events.page(a, 0, 10, null)).map((e) => [e.seq, e.resourceId])).toEqual([
      [1, ids[0]],
      [2, ids[2]],
    ]);
    expect((await events.page(b, 0, 10, null)).map((e) => e.seq)).toEqual([1]);
    await seal();
    expect((await events.page(a, 0, 10, null)).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('writes membership events only for groups of the workspace that asks', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const group = await aGroupRow(ws, 'eng');
    const user = { id: randomUUID(), userName: 'u@example.test' };
    await db.dataSource.transaction((tx) => events.appendMemberships(tx, other, 'directory.group.user_added', [group], [user]));
    await db.dataSource.transaction((tx) => events.appendMemberships(tx, ws, 'directory.group.user_added', [group], [user]));
    await seal();
    expect(await events.page(other, 0, 10, null)).toEqual([]);
    expect((await events.page(ws, 0, 10, null)).map((e) => e.data)).toEqual([{ group: { id: group, displayName: 'eng' }, user }]);
  });

  it('snapshots only the workspace asked for', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    await aGroupRow(ws, 'mine');
    await aUserEvent(ws);
    expect(await events.snapshot(other)).toEqual({ seq: 0, users: [], groups: [], memberships: [] });
    const mine = await events.snapshot(ws);
    expect(mine.seq).toBe(1);
    expect(mine.groups.map((g) => g.display_name)).toEqual(['mine']);
  });
});
