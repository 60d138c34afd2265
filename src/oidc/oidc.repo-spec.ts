import { randomUUID } from 'node:crypto';
import { anEndUserRow, aSecretHash, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { anOAuthClientRow } from '../../test/support/repository-fixtures';
import { NewAuthorizationCode, OidcRepository } from './oidc.repository';

describe('OidcRepository', () => {
  let oidc: OidcRepository;
  const db = repositoriesForSuite([OidcRepository], (booted) => (oidc = booted));

  const anApp = (workspaceId: string, name = 'Web app') =>
    anOAuthClientRow(db.dataSource, workspaceId, {
      name,
      secretHash: 'secret-hash',
      redirectUris: ['https://app.example.test/cb'],
      firstParty: false,
    });
  const aCode = (
    workspaceId: string,
    clientId: string,
    userId: string,
    expiresAt = new Date(Date.now() + 60_000),
  ): NewAuthorizationCode => ({
    codeHash: aSecretHash(),
    workspaceId,
    clientId,
    userId,
    browserSessionId: null,
    redirectUri: 'https://app.example.test/cb',
    scope: 'openid email',
    nonce: 'n-1',
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    authTime: new Date(),
    amr: ['pwd'],
    expiresAt,
  });
  const aSetting = async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const app = await anApp(ws);
    const user = await anEndUserRow(db.dataSource, ws);
    return { ws, app, user };
  };

  it('reads an application by its public id anywhere, and by its row id only in its workspace', async () => {
    const { ws, app } = await aSetting();
    const other = await aWorkspaceRow(db.dataSource);
    const byPublic = await oidc.clientByPublicId(app.clientId);
    expect(byPublic).toMatchObject({
      id: app.id,
      workspaceId: ws,
      name: 'Web app',
      secretHash: 'secret-hash',
      redirectUris: ['https://app.example.test/cb'],
      postLogoutRedirectUris: [],
      clientType: 'confidential',
      firstParty: false,
      subjectType: 'public',
      idTokenAlg: 'RS256',
      jwks: null,
    });
    expect(byPublic?.pairwiseSalt.length).toBeGreaterThan(0);
    expect((await oidc.clientById(ws, app.id))?.clientId).toBe(app.clientId);
    expect(await oidc.clientById(other, app.id)).toBeNull();
    expect(await oidc.clientByPublicId('cli_unknown')).toBeNull();
  });

  it('issues a code and reads it back with its person, alone or with the client that was issued it', async () => {
    const { ws, app, user } = await aSetting();
    const code = aCode(ws, app.id, user);
    await oidc.insertCode(code);
    const read = await oidc.code(code.codeHash);
    expect(read?.code).toMatchObject({
      codeHash: code.codeHash,
      workspaceId: ws,
      clientId: app.id,
      userId: user,
      scope: 'openid email',
      usedAt: null,
    });
    expect(read?.user).toMatchObject({ id: user, isActive: true });
    const both = await oidc.clientWithCode(app.clientId, code.codeHash);
    expect(both?.app.id).toBe(app.id);
    expect(both?.code?.code.codeHash).toBe(code.codeHash);
    expect((await db.transaction((t) => oidc.lockCode(t, code.codeHash)))?.code.codeHash).toBe(code.codeHash);
  });

  it('does not hand one application the code issued to another', async () => {
    const { ws, app, user } = await aSetting();
    const otherApp = await anApp(ws, 'Other app');
    const code = aCode(ws, app.id, user);
    await oidc.insertCode(code);
    const answer = await oidc.clientWithCode(otherApp.clientId, code.codeHash);
    expect(answer?.app.id).toBe(otherApp.id);
    expect(answer?.code).toBeNull();
    expect(await oidc.clientWithCode('cli_unknown', code.codeHash)).toBeNull();
  });

  it('reads a refresh token with the client it was issued to, its grant and person, and as none for another client', async () => {
    const { ws, app, user } = await aSetting();
    const otherApp = await anApp(ws, 'Other app');
    const sessionId = randomUUID();
    const tokenHash = aSecretHash();
    const now = new Date();
    await db.dataSource.query(
      `INSERT INTO end_user_sessions (id, workspace_id, user_id, oauth_client_id, kind, created_at, last_seen_at, expires_at, amr)
       VALUES ($1, $2, $3, $4, 'api', now(), now(), now() + interval '1 hour', '{pwd,otp}')`,
      [sessionId, ws, user, app.id],
    );
    await db.dataSource.query(
      `INSERT INTO end_user_refresh_tokens (workspace_id, session_id, token_hash, access_jti, access_expires_at, expires_at, created_at)
       VALUES ($1, $2, $3, $4, now() + interval '5 minutes', now() + interval '1 hour', now())`,
      [ws, sessionId, tokenHash, randomUUID()],
    );
    await db.dataSource.query(
      `INSERT INTO oauth_app_sessions (session_id, workspace_id, client_id, user_id, scope, auth_time) VALUES ($1, $2, $3, $4, 'openid email', now())`,
      [sessionId, ws, app.id, user],
    );
    const read = await oidc.clientWithRefreshToken(app.clientId, tokenHash, now);
    expect(read?.app.id).toBe(app.id);
    expect(read?.refresh).toMatchObject({
      tokenHash,
      sessionId,
      workspaceId: ws,
      clientId: app.id,
      userId: user,
      scope: 'openid email',
      usedAt: null,
      live: true,
      amr: ['pwd', 'otp'],
      sessionClientId: app.id,
      user: { id: user, isActive: true },
    });
    expect(await oidc.refreshGrant(app.id, tokenHash, now)).toEqual(read?.refresh);
    const foreign = await oidc.clientWithRefreshToken(otherApp.clientId, tokenHash, now);
    expect(foreign?.app.id).toBe(otherApp.id);
    expect(foreign?.refresh).toBeNull();
    expect(await oidc.refreshGrant(otherApp.id, tokenHash, now)).toBeNull();
    // What its access tokens grant: the application session with its client and person, only in its workspace.
    const access = await oidc.accessGrant(ws, sessionId);
    expect({ session: access?.grant.sessionId, scope: access?.grant.scope, app: access?.app.id, user: access?.user.id }).toEqual({
      session: sessionId,
      scope: 'openid email',
      app: app.id,
      user,
    });
    expect(await oidc.accessGrant(await aWorkspaceRow(db.dataSource), sessionId)).toBeNull();
    // After its session ends it still reads (a reuse is told from an unknown token), no longer live.
    await db.dataSource.query(`UPDATE end_user_sessions SET revoked_at = now() WHERE id = $1`, [sessionId]);
    expect((await oidc.refreshGrant(app.id, tokenHash, now))?.live).toBe(false);
  });

  it('marks a code used (only in its workspace) and purges expired ones', async () => {
    const { ws, app, user } = await aSetting();
    const other = await aWorkspaceRow(db.dataSource);
    const code = aCode(ws, app.id, user);
    await oidc.insertCode(code);
    await oidc.markCodeUsed(null, other, code.codeHash, new Date());
    expect((await oidc.code(code.codeHash))?.code.usedAt).toBeNull();
    await oidc.markCodeUsed(null, ws, code.codeHash, new Date());
    expect((await oidc.code(code.codeHash))?.code.usedAt).toBeInstanceOf(Date);

    const expired = aCode(ws, app.id, user, new Date(Date.now() - 1000));
    await oidc.insertCode(expired);
    await oidc.purgeCodes(new Date());
    expect(await oidc.code(expired.codeHash)).toBeNull();
  });

  it("reads a person's claims only in their workspace", async () => {
    const { ws, user } = await aSetting();
    const other = await aWorkspaceRow(db.dataSource);
    expect(await oidc.claimsUser(ws, user)).toMatchObject({ id: user, emailVerified: false, isActive: true });
    expect(await oidc.claimsUser(other, user)).toBeNull();
  });

  it('keeps one consent per person and application, listed with the application name', async () => {
    const { ws, app, user } = await aSetting();
    await db.transaction((t) =>
      oidc.saveConsent(t, { workspaceId: ws, userId: user, clientId: app.id, scope: 'openid', grantedAt: new Date() }),
    );
    await db.transaction((t) =>
      oidc.saveConsent(t, { workspaceId: ws, userId: user, clientId: app.id, scope: 'openid email', grantedAt: new Date() }),
    );
    expect((await oidc.consent(ws, user, app.id))?.scope).toBe('openid email');
    expect(await oidc.listConsents(ws, user)).toEqual([
      expect.objectContaining({ clientId: app.id, name: 'Web app', scope: 'openid email' }),
    ]);
    expect(await db.transaction((t) => oidc.appSessionsOfClient(t, ws, user, app.id))).toEqual([]);
  });

  // A consent is keyed by (user, application): the contract names it by the user, with one application per workspace.
  const apps = new Map<string, string>();
  itKeepsTheTenantContract('oauth_consents', db, {
    create: async (workspaceId) => {
      const app = await anApp(workspaceId);
      const user = await anEndUserRow(db.dataSource, workspaceId);
      apps.set(user, app.id);
      await db.transaction((t) =>
        oidc.saveConsent(t, { workspaceId, userId: user, clientId: app.id, scope: 'openid', grantedAt: new Date() }),
      );
      return user;
    },
    read: async (workspaceId, user) => (await oidc.consent(workspaceId, user, apps.get(user)!)) ?? undefined,
    delete: (workspaceId, user) => db.transaction((t) => oidc.deleteConsent(t, workspaceId, user, apps.get(user)!)),
  });
});
