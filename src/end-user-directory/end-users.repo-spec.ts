import { randomUUID } from 'node:crypto';
import { anEndUserRow, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { anOAuthClientRow } from '../../test/support/repository-fixtures';
import { DomainError } from '../common/errors';
import { EndUsersRepository, NewEndUser } from './end-users.repository';

describe('EndUsersRepository', () => {
  let users: EndUsersRepository;
  const db = repositoriesForSuite([EndUsersRepository], (booted) => (users = booted));

  const aClient = (workspaceId: string, name = 'Mobile app') => anOAuthClientRow(db.dataSource, workspaceId, { name });
  const anAccount = (oauthClientId: string, email = `Pat-${randomUUID().slice(0, 8)}@Example.test`): NewEndUser => ({
    oauthClientId,
    email,
    firstName: 'Pat',
    lastName: 'Doe',
    passwordHash: 'argon2-hash',
    now: new Date(),
  });

  it('registers an account of a client (email lower-cased) and refuses a second with the same email in any case', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const client = await aClient(ws);
    const account = anAccount(client.id);
    const made = await db.transaction((t) => users.insert(t, ws, account));
    expect(made).toMatchObject({
      workspaceId: ws,
      oauthClientId: client.id,
      email: account.email.toLowerCase(),
      isActive: true,
      emailVerified: false,
    });
    const again = db.transaction((t) => users.insert(t, ws, { ...account, email: account.email.toUpperCase() }));
    await expect(again).rejects.toBeInstanceOf(DomainError);
    await expect(again).rejects.toMatchObject({ message: expect.stringMatching(/already exists/) });
  });

  it('reads the client and its candidates for an email in one go, and only that client’s', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const [client, otherClient] = [await aClient(ws, 'App'), await aClient(ws, 'Other')];
    const email = `same-${randomUUID().slice(0, 8)}@example.test`;
    const mine = await db.transaction((t) => users.insert(t, ws, anAccount(client.id, email)));
    await db.transaction((t) => users.insert(t, ws, anAccount(otherClient.id, email)));
    const answer = await users.clientAndCandidates(client.clientId, email.toUpperCase());
    expect(answer.client).toEqual({ id: client.id, workspaceId: ws, clientId: client.clientId, name: 'App' });
    expect(answer.users.map((u) => u.id)).toEqual([mine.id]);
    expect((await users.clientAndCandidates(client.clientId, 'nobody@example.test')).users).toEqual([]);
    await expect(users.clientAndCandidates('cli_unknown', email)).rejects.toBeInstanceOf(DomainError);
    await expect(users.clientByPublicId('cli_unknown')).rejects.toBeInstanceOf(DomainError);
    expect((await users.clientByPublicId(client.clientId)).id).toBe(client.id);
  });

  it('finds the candidates of a whole workspace, or of one client, and never another workspace’s', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const client = await aClient(ws);
    const email = `cand-${randomUUID().slice(0, 8)}@example.test`;
    const ofClient = await db.transaction((t) => users.insert(t, ws, anAccount(client.id, email)));
    const directory = await anEndUserRow(db.dataSource, ws, email);
    await anEndUserRow(db.dataSource, other, email);
    expect((await users.candidates(ws, email)).map((u) => u.id).sort()).toEqual([ofClient.id, directory].sort());
    expect((await users.candidates(ws, email, client.id)).map((u) => u.id)).toEqual([ofClient.id]);
    expect((await users.directoryAccount(ws, email.toUpperCase()))?.id).toBe(directory);
    expect(await users.directoryAccount('not-a-uuid', email)).toBeNull();
    expect((await users.allByEmail(email)).length).toBe(3);
  });

  it('names mails after the client, else the workspace', async () => {
    const ws = await aWorkspaceRow(db.dataSource, 'Acme');
    const client = await aClient(ws, 'Acme Mobile');
    expect(await users.workspaceName(ws)).toBe('Acme');
    expect(await users.workspaceName(randomUUID())).toBeNull();
    expect(await db.transaction((t) => users.clientName(t, ws, client.id))).toBe('Acme Mobile');
    expect(await db.transaction((t) => users.clientName(t, ws, null))).toBe('Acme');
  });

  it('marks an email verified once and records a new password', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await anEndUserRow(db.dataSource, ws);
    await db.transaction((t) => users.markVerified(t, ws, user, new Date()));
    await db.transaction((t) => users.setPassword(t, ws, user, 'new-hash', new Date()));
    expect(await users.byId(ws, user)).toMatchObject({ emailVerified: true, passwordHash: 'new-hash' });
  });

  itKeepsTheTenantContract('end_users', db, {
    create: (workspaceId) => anEndUserRow(db.dataSource, workspaceId),
    read: async (workspaceId, id) => (await users.byId(workspaceId, id)) ?? undefined,
    update: async (workspaceId, id) => {
      await db.transaction((t) => users.setPassword(t, workspaceId, id, `hash-${workspaceId}`, new Date()));
      return (
        (await db.dataSource.query('SELECT 1 FROM end_users WHERE id = $1 AND password_hash = $2', [id, `hash-${workspaceId}`])).length ===
        1
      );
    },
  });
});
