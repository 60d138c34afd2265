import { randomUUID } from 'node:crypto';
import { aDeveloperRow, aWorkspaceRow, commits, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { ScimClientsRepository } from './scim-clients.repository';

describe('ScimClientsRepository', () => {
  let clients: ScimClientsRepository;
  const db = repositoriesForSuite([ScimClientsRepository], (booted) => (clients = booted));

  const aClient = async (workspaceId: string) => {
    const createdBy = await aDeveloperRow(db.dataSource);
    return db.dataSource.transaction((tx) =>
      clients.insertClient(tx, workspaceId, { clientId: `sc_${randomUUID()}`, label: 'idp', createdBy }),
    );
  };
  itKeepsTheTenantContract('SCIM OAuth clients', db, {
    create: async (workspaceId) => (await aClient(workspaceId)).id,
    read: async (workspaceId, id) => (await clients.listClients(workspaceId)).find((c) => c.id === id),
    // markClientRevoked refuses a client the workspace does not have.
    update: (workspaceId, id) => commits(db, (tx) => clients.markClientRevoked(tx, workspaceId, id)),
  });

  it('grants a client’s workspace while it and its secret are unrevoked', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const client = await aClient(ws);
    const secret = await db.dataSource.transaction((tx) =>
      clients.insertSecret(tx, ws, client.id, { secretHash: randomUUID(), expiresAt: new Date(Date.now() + 3600_000) }),
    );
    expect(await clients.liveGrantWorkspace(client.id, secret.id)).toBe(ws);
    await db.dataSource.transaction((tx) => clients.markSecretRevoked(tx, ws, secret.id));
    expect(await clients.liveGrantWorkspace(client.id, secret.id)).toBeUndefined();
    expect(await clients.liveGrantWorkspace(client.id, null)).toBe(ws);
    expect(await db.dataSource.transaction((tx) => clients.markClientRevoked(tx, ws, client.id))).toEqual(expect.any(Date));
    expect(await clients.liveGrantWorkspace(client.id, null)).toBeUndefined();
  });
});
