import { randomBytes } from 'node:crypto';
import { anEndUserRow, aSecretHash, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { NewPasskey, PasskeysRepository } from './passkeys.repository';

describe('PasskeysRepository', () => {
  let passkeys: PasskeysRepository;
  const db = repositoriesForSuite([PasskeysRepository], (booted) => (passkeys = booted));

  const aPasskey = (name = 'Laptop', credentialId = randomBytes(16).toString('base64url')): NewPasskey => ({
    credentialId,
    publicKey: new Uint8Array(randomBytes(77)),
    signCount: 3,
    transports: ['internal', 'hybrid'],
    deviceType: 'multiDevice',
    backedUp: true,
    name,
    now: new Date(),
  });
  const register = (ws: string, user: string, passkey = aPasskey()) =>
    db.dataSource.transaction((tx) => passkeys.insert(tx, ws, user, passkey));
  const aUser = async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    return { ws, user: await anEndUserRow(db.dataSource, ws) };
  };

  it('stores a credential as registered (key bytes intact) and lists the user’s passkeys oldest first', async () => {
    const { ws, user } = await aUser();
    const first = aPasskey('Laptop');
    const made = await register(ws, user, first);
    await register(ws, user, aPasskey('Phone'));
    expect(made).toMatchObject({
      workspaceId: ws,
      userId: user,
      credentialId: first.credentialId,
      signCount: 3,
      deviceType: 'multiDevice',
    });
    expect(Buffer.from(made!.publicKey).equals(Buffer.from(first.publicKey))).toBe(true);
    expect((await passkeys.list(ws, user)).map((p) => p.name)).toEqual(['Laptop', 'Phone']);
  });

  it('refuses a credential id already registered in the workspace', async () => {
    const { ws, user } = await aUser();
    const other = await anEndUserRow(db.dataSource, ws);
    const passkey = aPasskey();
    expect(await register(ws, user, passkey)).not.toBeNull();
    expect(await register(ws, other, { ...passkey, name: 'Copy' })).toBeNull();
  });

  it('records a use only when the counter moves forward, or for an authenticator that keeps none', async () => {
    const { ws, user } = await aUser();
    const made = (await register(ws, user))!;
    const use = (count: number) => db.dataSource.transaction((tx) => passkeys.use(tx, ws, made.id, count, new Date()));
    expect(await use(3)).toBe(false);
    expect(await use(4)).toBe(true);
    expect(await use(2)).toBe(false);
    const counterless = (await register(ws, user, { ...aPasskey(), signCount: 0 }))!;
    expect(await db.dataSource.transaction((tx) => passkeys.use(tx, ws, counterless.id, 0, new Date()))).toBe(true);
    const locked = await db.dataSource.transaction((tx) => passkeys.lockByCredential(tx, ws, made.credentialId));
    expect(locked?.signCount).toBe(4);
    expect(locked?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('spends a challenge once, for its purpose, before it expires', async () => {
    const { ws, user } = await aUser();
    const now = new Date();
    const later = new Date(now.getTime() + 60_000);
    const hash = aSecretHash();
    await passkeys.saveChallenge(ws, user, 'second_factor', hash, now, later);
    expect(await passkeys.spendChallenge(null, hash, 'passwordless', now)).toBeNull();
    expect(await passkeys.spendChallenge(null, hash, 'second_factor', now)).toEqual({ workspaceId: ws, userId: user });
    expect(await passkeys.spendChallenge(null, hash, 'second_factor', now)).toBeNull();

    const expiring = aSecretHash();
    await passkeys.saveChallenge(ws, null, 'passwordless', expiring, now, later);
    expect(await passkeys.spendChallenge(null, expiring, 'passwordless', new Date(later.getTime() + 1))).toBeNull();
    await passkeys.pruneChallenges(new Date(later.getTime() + 1));
    expect(await passkeys.spendChallenge(null, expiring, 'passwordless', now)).toBeNull();
  });

  /** Which user each created passkey belongs to (the repository asks for the user as well as the workspace). */
  const owners = new Map<string, string>();
  itKeepsTheTenantContract('end_user_passkeys', db, {
    create: async (workspaceId) => {
      const user = await anEndUserRow(db.dataSource, workspaceId);
      const made = (await register(workspaceId, user))!;
      owners.set(made.id, user);
      return made.id;
    },
    read: async (workspaceId, id) => (await passkeys.list(workspaceId, owners.get(id)!)).find((p) => p.id === id),
    update: async (workspaceId, id) =>
      (await db.dataSource.transaction((tx) => passkeys.rename(tx, workspaceId, owners.get(id)!, id, 'Renamed'))) !== null,
    delete: async (workspaceId, id) =>
      (await db.dataSource.transaction((tx) => passkeys.remove(tx, workspaceId, owners.get(id)!, id))) !== null,
  });
});
