import { randomUUID } from 'node:crypto';
import { aMemberAndAnOutsider, itKeepsTheTenantContract, judgedByTable, repositoriesForSuite } from '../../test/support/repository';
import { OAuthClientsRepository } from './oauth-clients.repository';

describe('OAuthClientsRepository', () => {
  let clients: OAuthClientsRepository;
  const db = repositoriesForSuite([OAuthClientsRepository], (booted) => (clients = booted));

  const aClient = (workspaceId: string) =>
    db.dataSource.transaction((tx) =>
      clients.insert(tx, workspaceId, {
        clientId: `ci_${randomUUID()}`,
        clientSecretHash: 'x',
        name: 'App',
        redirectUris: ['https://app.example.test/cb'],
        clientType: 'confidential',
        requirePkce: true,
        postLogoutRedirectUris: [],
        firstParty: true,
        subjectType: 'public',
        idTokenAlg: 'RS256',
        jwks: null,
        allowSignup: false,
      }),
    );
  const table = judgedByTable(db, 'oauth_clients', 'name');

  itKeepsTheTenantContract('OAuth clients', db, {
    create: async (workspaceId) => (await aClient(workspaceId)).id,
    read: async (workspaceId, id) => (await clients.listForWorkspace(workspaceId)).find((c) => c.id === id),
    update: (workspaceId, id) => table.sets(id, `renamed-${workspaceId}`, (tx, name) => clients.update(tx, workspaceId, id, { name })),
    delete: (workspaceId, id) => table.removes(id, (tx) => clients.delete(tx, workspaceId, id)),
  });

  it('shows a client to a member of its workspace only', async () => {
    const { workspaceId: ws, member, outsider } = await aMemberAndAnOutsider(db.dataSource, 'member');
    const client = await aClient(ws);
    expect((await clients.findVisibleTo(null, member, client.id))?.id).toBe(client.id);
    expect(await clients.findVisibleTo(null, outsider, client.id)).toBeNull();
  });
});
