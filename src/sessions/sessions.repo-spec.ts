import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { ScimUsersRepository } from '../scim/users/scim-users.repository';
import { EndUsersRepository } from '../end-user-directory/end-users.repository';
import { SessionsRepository } from './sessions.repository';

const HOUR = 3600_000;

describe('SessionsRepository and EndUsersRepository', () => {
  let sessions: SessionsRepository;
  let endUsers: EndUsersRepository;
  let directory: ScimUsersRepository;
  const db = repositoriesForSuite(
    [SessionsRepository, EndUsersRepository, ScimUsersRepository],
    (...booted) => ([sessions, endUsers, directory] = booted),
  );

  const aUser = async (workspaceId: string, email = `s-${randomUUID().slice(0, 8)}@example.test`) =>
    (await directory.insert(null, workspaceId, randomUUID(), { email, firstName: 'S', lastName: 'U', isActive: true }, []))!;

  /** A browser session of a fresh user of the workspace, with a refresh token; its ids and cookie hash. */
  const aSession = async (workspaceId: string) => {
    const user = await aUser(workspaceId);
    const cookieHash = randomUUID();
    const now = new Date();
    const record = await db.dataSource.transaction((tx) =>
      sessions.insert(tx, workspaceId, {
        id: randomUUID(),
        userId: user.id,
        oauthClientId: null,
        kind: 'browser',
        ipAddress: '203.0.113.9',
        userAgent: 'repo-spec',
        browserFamily: 'Firefox',
        osFamily: 'Linux',
        browserTokenHash: cookieHash,
        now,
        expiresAt: new Date(now.getTime() + HOUR),
        amr: ['pwd'],
        refresh: {
          tokenHash: randomUUID(),
          accessJti: randomUUID(),
          accessExpiresAt: new Date(now.getTime() + HOUR),
          expiresAt: new Date(now.getTime() + HOUR),
        },
      }),
    );
    return { record, user, cookieHash };
  };
  const live = (workspaceId: string, s: { record: { id: string; userId: string } }) =>
    sessions.isLive(workspaceId, { sessionId: s.record.id, userId: s.record.userId, jti: randomUUID() }, new Date());

  const made = new Map<string, Awaited<ReturnType<typeof aSession>>>();
  itKeepsTheTenantContract('end-user sessions', db, {
    create: async (workspaceId) => {
      const s = await aSession(workspaceId);
      made.set(s.record.id, s);
      return s.record.id;
    },
    read: async (workspaceId, id) => ((await live(workspaceId, made.get(id)!)) ? id : undefined),
    delete: async (workspaceId, id) =>
      (await db.dataSource.transaction((tx) => sessions.revoke(tx, workspaceId, { sessionId: id }, 'repo-spec', new Date()))).sessionIds
        .length > 0,
  });

  it('answers the inserted session typed from the entity, and its browser cookie finds it with the user’s profile', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const s = await aSession(ws);
    expect(s.record).toMatchObject({ workspaceId: ws, userId: s.user.id, kind: 'browser', amr: ['pwd'], latitude: null, country: null });
    expect(await sessions.browserSession(s.cookieHash, new Date())).toEqual({
      id: s.record.id,
      workspaceId: ws,
      userId: s.user.id,
      oauthClientId: null,
      createdAt: s.record.createdAt,
      email: s.user.email,
      firstName: 'S',
      lastName: 'U',
      emailVerified: true,
      amr: ['pwd'],
    });
  });

  it('finds no browser session once its user is deactivated', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const s = await aSession(ws);
    await db.dataSource.query(`UPDATE end_users SET is_active = false WHERE id = $1`, [s.user.id]);
    expect(await sessions.browserSession(s.cookieHash, new Date())).toBeNull();
  });

  it("bumps a browser session's last_seen_at when it is a minute old, not on every read of its cookie", async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const s = await aSession(ws);
    const lastSeen = async () =>
      (await db.dataSource.query<{ last_seen_at: Date }[]>(`SELECT last_seen_at FROM end_user_sessions WHERE id = $1`, [s.record.id]))[0]
        .last_seen_at;
    const signedIn = await lastSeen();
    expect(await sessions.browserSession(s.cookieHash, new Date(signedIn.getTime() + 59_000))).toMatchObject({ id: s.record.id });
    expect(await lastSeen()).toEqual(signedIn);
    const later = new Date(signedIn.getTime() + 61_000);
    expect(await sessions.browserSession(s.cookieHash, later)).toMatchObject({ id: s.record.id });
    expect(await lastSeen()).toEqual(later);
  });

  it('revoking answers the refresh and access token ids to deny', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const s = await aSession(ws);
    const revoked = await db.dataSource.transaction((tx) => sessions.revoke(tx, ws, { userId: s.user.id }, 'repo-spec', new Date()));
    expect(revoked.sessionIds).toEqual([s.record.id]);
    expect(revoked.tokens).toHaveLength(2);
    expect(await live(ws, s)).toBe(false);
  });

  it('rotates a refresh token once, in its workspace, and never for a revoked session', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const other = await aWorkspaceRow(db.dataSource);
    const s = await aSession(ws);
    const [{ token_hash: tokenHash }] = await db.dataSource.query<{ token_hash: string }[]>(
      `SELECT token_hash FROM end_user_refresh_tokens WHERE session_id = $1`,
      [s.record.id],
    );
    const now = new Date();
    const next = () => ({
      tokenHash: randomUUID(),
      accessJti: randomUUID(),
      accessExpiresAt: new Date(now.getTime() + HOUR),
      expiresAt: new Date(now.getTime() + 2 * HOUR),
    });
    const spend = { workspaceId: ws, tokenHash, sessionId: s.record.id };
    const later = new Date(now.getTime() + 2 * HOUR);
    expect(await sessions.rotateRefreshToken(null, { ...spend, workspaceId: other }, later, next(), now, [])).toBe(false);
    const first = next();
    expect(await sessions.rotateRefreshToken(null, spend, later, first, now, [])).toBe(true);
    // Spent: a second rotation of the same token writes nothing.
    expect(await sessions.rotateRefreshToken(null, spend, later, next(), now, [])).toBe(false);
    const tokens = await db.dataSource.query<{ token_hash: string; used: boolean }[]>(
      `SELECT token_hash, used_at IS NOT NULL AS used FROM end_user_refresh_tokens WHERE session_id = $1 ORDER BY created_at, used_at NULLS LAST`,
      [s.record.id],
    );
    expect(tokens).toEqual(
      expect.arrayContaining([
        { token_hash: tokenHash, used: true },
        { token_hash: first.tokenHash, used: false },
      ]),
    );
    expect(tokens).toHaveLength(2);
    const [{ expires_at: extended }] = await db.dataSource.query<{ expires_at: Date }[]>(
      `SELECT expires_at FROM end_user_sessions WHERE id = $1`,
      [s.record.id],
    );
    expect(extended.getTime()).toBe(later.getTime());
    await db.dataSource.transaction((tx) => sessions.revoke(tx, ws, { sessionId: s.record.id }, 'repo-spec', new Date()));
    expect(await sessions.rotateRefreshToken(null, { ...spend, tokenHash: first.tokenHash }, later, next(), new Date(), [])).toBe(false);
    const [{ count }] = await db.dataSource.query<{ count: string }[]>(
      `SELECT count(*) FROM end_user_refresh_tokens WHERE session_id = $1`,
      [s.record.id],
    );
    expect(Number(count)).toBe(2);
  });

  it('finds sign-in candidates only in the workspace asked', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const user = await aUser(ws, 'Candidate@Example.test');
    expect((await endUsers.candidates(ws, 'candidate@example.test')).map((u) => u.id)).toEqual([user.id]);
    expect(await endUsers.candidates(other, 'candidate@example.test')).toEqual([]);
    expect(await endUsers.workspaceName(ws)).toEqual(expect.any(String));
  });
});
