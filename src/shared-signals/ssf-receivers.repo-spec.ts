import { randomUUID } from 'node:crypto';
import { itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { SsfReceiversRepository } from './ssf-receivers.repository';

describe('SsfReceiversRepository', () => {
  let receivers: SsfReceiversRepository;
  const db = repositoriesForSuite([SsfReceiversRepository], (booted) => (receivers = booted));

  const aReceiver = (workspaceId: string) =>
    db.dataSource.transaction((tx) =>
      receivers.insert(tx, workspaceId, {
        name: 'repo-spec',
        clientId: `ssfr_${randomUUID()}`,
        secretHash: 'not-a-real-hash',
        defaultSubjects: 'NONE',
        createdBy: null,
      }),
    );

  itKeepsTheTenantContract('SSF receivers', db, {
    create: async (workspaceId) => (await aReceiver(workspaceId)).id,
    read: async (workspaceId, id) => (await receivers.find(null, workspaceId, id)) ?? undefined,
    delete: (workspaceId, id) => db.dataSource.transaction((tx) => receivers.delete(tx, workspaceId, id)),
  });

  it('lists a workspace its own receivers only, and finds one by client_id', async () => {
    const { aWorkspaceRow } = await import('../../test/support/repository');
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const mine = await aReceiver(ws);
    await aReceiver(other);
    expect((await receivers.list(ws)).map((r) => r.id)).toEqual([mine.id]);
    expect((await receivers.findByClientId(mine.clientId))?.id).toBe(mine.id);
  });
});
