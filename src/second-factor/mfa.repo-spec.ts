import { anEndUserRow, aSecretHash, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { MAX_ATTEMPTS, MfaRepository, NewChallenge } from './mfa.repository';

describe('MfaRepository', () => {
  let mfa: MfaRepository;
  const db = repositoriesForSuite([MfaRepository], (booted) => (mfa = booted));

  const aUser = async () => {
    const ws = await aWorkspaceRow(db.dataSource, 'Acme');
    return { ws, user: await anEndUserRow(db.dataSource, ws) };
  };
  const aConfirmedTotp = async (ws: string, user: string, step = 100) => {
    await db.transaction((t) => mfa.savePendingTotp(t, ws, user, 'sealed-secret', new Date()));
    await db.transaction((t) => mfa.confirmTotp(t, ws, user, step, new Date()));
  };
  const aChallenge = (user: string, overrides: Partial<NewChallenge> = {}): NewChallenge => ({
    userId: user,
    tokenHash: aSecretHash(),
    kind: 'browser',
    reason: 'second_factor',
    methods: ['totp', 'recovery_code'],
    anomalyKinds: [],
    now: new Date(),
    expiresAt: new Date(Date.now() + 300_000),
    ...overrides,
  });

  it('summarises the factors: a pending authenticator is not one, a confirmed one is, with the recovery codes left', async () => {
    const { ws, user } = await aUser();
    expect(await mfa.factors(ws, user)).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    await db.transaction((t) => mfa.savePendingTotp(t, ws, user, 'sealed-secret', new Date()));
    expect((await mfa.factors(ws, user)).totp).toBe(false);
    await db.transaction((t) => mfa.confirmTotp(t, ws, user, 100, new Date()));
    await db.transaction((t) => mfa.replaceRecoveryCodes(t, ws, user, ['h1', 'h2', 'h3'], new Date()));
    expect(await mfa.factors(ws, user)).toEqual({ totp: true, passkeys: 0, recoveryCodesLeft: 3 });
  });

  it('names the workspace as the issuer when the account has no application', async () => {
    const { ws, user } = await aUser();
    expect(await mfa.issuerName(ws, user)).toBe('Acme');
  });

  it('accepts each TOTP step once, and only a step later than the last accepted', async () => {
    const { ws, user } = await aUser();
    await aConfirmedTotp(ws, user, 100);
    expect(await db.transaction((t) => mfa.useTotpStep(t, ws, user, 100))).toBe(false);
    expect(await db.transaction((t) => mfa.useTotpStep(t, ws, user, 101))).toBe(true);
    expect(await db.transaction((t) => mfa.useTotpStep(t, ws, user, 101))).toBe(false);
    await db.transaction((t) => mfa.deleteTotp(t, ws, user));
    expect(await mfa.totp(ws, user)).toBeNull();
  });

  it('uses a recovery code once, and a new set replaces the old', async () => {
    const { ws, user } = await aUser();
    await db.transaction((t) => mfa.replaceRecoveryCodes(t, ws, user, ['old-1', 'old-2'], new Date()));
    const [code] = await db.transaction((t) => mfa.unusedRecoveryCodes(t, ws, user));
    const uses = await Promise.all([1, 2].map(() => db.transaction((t) => mfa.useRecoveryCode(t, ws, code.id, new Date()))));
    expect(uses.filter(Boolean)).toHaveLength(1);
    await db.transaction((t) => mfa.replaceRecoveryCodes(t, ws, user, ['new-1'], new Date()));
    expect((await db.transaction((t) => mfa.unusedRecoveryCodes(t, ws, user))).map((c) => c.codeHash)).toEqual(['new-1']);
  });

  it('reads a presented challenge with its account and the sealed secret of a confirmed authenticator', async () => {
    const { ws, user } = await aUser();
    await aConfirmedTotp(ws, user);
    const challenge = aChallenge(user);
    await mfa.insertChallenge(null, ws, challenge);
    const locked = await db.transaction((t) => mfa.lockChallenge(t, challenge.tokenHash));
    expect(locked).toMatchObject({ workspaceId: ws, userId: user, kind: 'browser', methods: ['totp', 'recovery_code'], attempts: 0 });
    expect(locked?.user).toMatchObject({ id: user, workspaceId: ws, passwordHash: null });
    expect(locked?.totpSecret).toBe('sealed-secret');
    expect(await mfa.liveChallenge(challenge.tokenHash, new Date())).toMatchObject({ workspaceId: ws, userId: user });
  });

  it('stops answering a challenge once consumed, voided by failures, or expired', async () => {
    const { ws, user } = await aUser();
    const consumed = aChallenge(user);
    await mfa.insertChallenge(null, ws, consumed);
    const { id } = (await db.transaction((t) => mfa.lockChallenge(t, consumed.tokenHash)))!;
    await db.transaction((t) => mfa.consumeChallenge(t, ws, id, new Date()));
    expect(await mfa.liveChallenge(consumed.tokenHash, new Date())).toBeNull();

    const voided = aChallenge(user);
    await mfa.insertChallenge(null, ws, voided);
    const second = (await db.transaction((t) => mfa.lockChallenge(t, voided.tokenHash)))!;
    await db.transaction((t) => mfa.countChallengeFailure(t, ws, second.id, MAX_ATTEMPTS, new Date(), false));
    expect(await mfa.liveChallenge(voided.tokenHash, new Date())).toBeNull();

    const expiring = aChallenge(user, { expiresAt: new Date(Date.now() + 1000) });
    await mfa.insertChallenge(null, ws, expiring);
    expect(await mfa.liveChallenge(expiring.tokenHash, new Date(Date.now() + 2000))).toBeNull();
    await mfa.pruneChallenges(new Date(Date.now() + 2000));
    expect(await db.transaction((t) => mfa.lockChallenge(t, expiring.tokenHash))).toBeNull();
  });

  it('consumes a challenge with a TOTP step only when the step is new: a replayed code consumes nothing', async () => {
    const { ws, user } = await aUser();
    await aConfirmedTotp(ws, user, 100);
    const challenge = aChallenge(user);
    await mfa.insertChallenge(null, ws, challenge);
    const { id } = (await db.transaction((t) => mfa.lockChallenge(t, challenge.tokenHash)))!;
    expect(await db.transaction((t) => mfa.useTotpStepAndConsume(t, ws, user, 100, id, new Date()))).toBe(false);
    expect(await mfa.liveChallenge(challenge.tokenHash, new Date())).not.toBeNull();
    expect(await db.transaction((t) => mfa.useTotpStepAndConsume(t, ws, user, 101, id, new Date()))).toBe(true);
    expect(await mfa.liveChallenge(challenge.tokenHash, new Date())).toBeNull();
  });

  // The TOTP row is keyed by its user: the contract names it by the user id.
  itKeepsTheTenantContract('end_user_totp', db, {
    create: async (workspaceId) => {
      const user = await anEndUserRow(db.dataSource, workspaceId);
      await db.transaction((t) => mfa.savePendingTotp(t, workspaceId, user, 'sealed-secret', new Date()));
      return user;
    },
    read: async (workspaceId, user) => (await mfa.totp(workspaceId, user)) ?? undefined,
    update: async (workspaceId, user) => {
      await db.transaction((t) => mfa.confirmTotp(t, workspaceId, user, 7, new Date()));
      return (
        (await db.dataSource.query('SELECT 1 FROM end_user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL', [user])).length === 1
      );
    },
    delete: async (workspaceId, user) => {
      await db.transaction((t) => mfa.deleteTotp(t, workspaceId, user));
      return (await db.dataSource.query('SELECT 1 FROM end_user_totp WHERE user_id = $1', [user])).length === 0;
    },
  });
});
