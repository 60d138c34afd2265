import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, judgedByTable, repositoriesForSuite } from '../../test/support/repository';
import { anOidcConnection } from '../../test/support/repository-fixtures';
import { DomainTaken, SsoConnectionsRepository } from './sso-connections.repository';

describe('SsoConnectionsRepository', () => {
  let repo: SsoConnectionsRepository;
  const db = repositoriesForSuite([SsoConnectionsRepository], (booted) => (repo = booted));

  const aConnection = (workspaceId: string) => db.dataSource.transaction((tx) => repo.insert(tx, workspaceId, anOidcConnection()));
  const aPerson = async (workspaceId: string, email = `p-${Math.random().toString(36).slice(2)}@acme.test`) =>
    (
      await db.dataSource.query<{ id: string }[]>(`INSERT INTO end_users (workspace_id, email) VALUES ($1, $2) RETURNING id`, [
        workspaceId,
        email,
      ])
    )[0].id;
  const table = judgedByTable(db, 'sso_connections', 'name');

  itKeepsTheTenantContract('SSO connections', db, {
    create: async (workspaceId) => (await aConnection(workspaceId)).id,
    read: async (workspaceId, id) => (await repo.listForWorkspace(workspaceId)).find((c) => c.id === id),
    update: (workspaceId, id) => table.sets(id, `renamed ${workspaceId}`, (tx, name) => repo.update(tx, workspaceId, id, { name })),
    delete: (workspaceId, id) => table.removes(id, (tx) => repo.delete(tx, workspaceId, id)),
  });

  itKeepsTheTenantContract('SSO attempts', db, {
    create: async (workspaceId) => {
      const c = await aConnection(workspaceId);
      await repo.recordAttempt(workspaceId, { connectionId: c.id, outcome: 'failure', reason: 'user_not_provisioned' });
      return c.id;
    },
    read: async (workspaceId, connectionId) => (await repo.attempts(workspaceId, connectionId, 10))[0],
  });

  itKeepsTheTenantContract('SSO bindings', db, {
    create: async (workspaceId) => {
      const c = await aConnection(workspaceId);
      const userId = await aPerson(workspaceId);
      await db.dataSource.transaction((tx) =>
        repo.bind(tx, workspaceId, { connectionId: c.id, issuer: 'iss', subject: 's1', userId }, new Date()),
      );
      return c.id;
    },
    read: async (workspaceId, connectionId) => (await repo.bindingFor(workspaceId, connectionId, 'iss', 's1')) ?? undefined,
  });

  it('keeps a domain to one connection of a workspace, and lets another workspace have it too', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const [a, b, c] = [await aConnection(ws), await aConnection(ws), await aConnection(other)];
    await db.dataSource.transaction((tx) => repo.setDomains(tx, ws, a.id, ['acme.test', 'acme.example'], () => 'tok-a'));
    await expect(db.dataSource.transaction((tx) => repo.setDomains(tx, ws, b.id, ['acme.test'], () => 'tok-b'))).rejects.toBeInstanceOf(
      DomainTaken,
    );
    await db.dataSource.transaction((tx) => repo.setDomains(tx, other, c.id, ['acme.test'], () => 'tok-c'));
    // Replacing the list keeps a kept domain's token and drops the others.
    await db.dataSource.transaction((tx) => repo.setDomains(tx, ws, a.id, ['acme.test', 'new.test'], () => 'tok-new'));
    const domains = await repo.domains(null, ws, [a.id]);
    expect(domains.map((d) => [d.domain, d.verificationToken]).sort()).toEqual([
      ['acme.test', 'tok-a'],
      ['new.test', 'tok-new'],
    ]);
  });

  it('binds one subject to one person: a second subject for the person moves the binding, a taken subject is refused', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const c = await aConnection(ws);
    const [ada, bob] = [await aPerson(ws), await aPerson(ws)];
    const bind = (subject: string, userId: string) =>
      db.dataSource.transaction((tx) => repo.bind(tx, ws, { connectionId: c.id, issuer: 'iss', subject, userId }, new Date()));
    expect(await bind('s-ada', ada)).toEqual({ boundTo: ada, unbound: [] });
    expect(await bind('s-ada', ada)).toEqual({ boundTo: ada, unbound: [] });
    // Another person cannot take a bound subject: the row still names Ada.
    expect((await bind('s-ada', bob)).boundTo).toBeNull();
    expect((await repo.bindingFor(ws, c.id, 'iss', 's-ada'))?.userId).toBe(ada);
    // Ada verified under a new subject: the old one is unbound.
    expect(await bind('s-ada-2', ada)).toEqual({ boundTo: ada, unbound: ['s-ada'] });
    expect(await repo.bindingFor(ws, c.id, 'iss', 's-ada')).toBeNull();
    expect((await repo.bindingOf(ws, c.id, ada))?.subject).toBe('s-ada-2');
    expect((await repo.boundPerson(ws, c.id, 'iss', 's-ada-2'))?.id).toBe(ada);
    expect(await repo.boundPerson(ws, c.id, 'iss', 's-ada')).toBeNull();
  });

  it("writes a sign-in's successful attempt with the binding, and none when the subject is someone else's", async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const c = await aConnection(ws);
    const [ada, bob] = [await aPerson(ws), await aPerson(ws)];
    const signIn = (subject: string, userId: string) =>
      db.dataSource.transaction((tx) =>
        repo.bind(tx, ws, { connectionId: c.id, issuer: 'iss', subject, userId }, new Date(), {
          email: 'ada@acme.test',
          requestId: 'req-1',
        }),
      );
    expect((await signIn('s-ada', ada)).boundTo).toBe(ada);
    expect(await repo.attempts(ws, c.id, 10)).toEqual([
      expect.objectContaining({ outcome: 'success', subject: 's-ada', email: 'ada@acme.test', userId: ada, requestId: 'req-1' }),
    ]);
    expect((await signIn('s-ada', bob)).boundTo).toBeNull();
    expect(await repo.attempts(ws, c.id, 10)).toHaveLength(1);
  });

  it("opens a returning person's session in one statement, its rider written with it; nothing when the subject or the person moved", async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const c = await aConnection(ws);
    const [ada, bob] = [await aPerson(ws), await aPerson(ws)];
    await db.dataSource.transaction((tx) =>
      repo.bind(tx, ws, { connectionId: c.id, issuer: 'iss', subject: 's-ada', userId: ada }, new Date()),
    );
    await db.dataSource.transaction((tx) =>
      repo.bind(tx, ws, { connectionId: c.id, issuer: 'iss', subject: 's-bob', userId: bob }, new Date()),
    );
    const settled: (string | null)[] = [];
    const rider = { expression: `(SELECT 'rode ' || $1::text)`, params: ['along'], settle: (value: string | null) => settled.push(value) };
    const session = (userId: string) => ({
      id: randomUUID(),
      userId,
      oauthClientId: null,
      kind: 'browser' as const,
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0',
      browserFamily: 'Firefox',
      osFamily: 'Linux',
      browserTokenHash: randomUUID(),
      now: new Date(),
      expiresAt: new Date(Date.now() + 3_600_000),
      amr: ['fed'],
    });
    const signIn = (subject: string, userId: string, s = session(userId)) =>
      repo.signIn(null, ws, { connectionId: c.id, issuer: 'iss', subject, userId }, s, { email: 'p@acme.test', requestId: 'req-1' }, [
        rider,
      ]);
    const sessionsOf = async (userId: string) =>
      db.dataSource.query<{ id: string; kind: string; amr: string[]; ip_address: string }[]>(
        'SELECT id, kind, amr, ip_address FROM end_user_sessions WHERE workspace_id = $1 AND user_id = $2',
        [ws, userId],
      );

    const ok = session(ada);
    expect(await signIn('s-ada', ada, ok)).toBe(true);
    expect(settled).toEqual(['rode along']);
    expect(await sessionsOf(ada)).toEqual([{ id: ok.id, kind: 'browser', amr: ['fed'], ip_address: '203.0.113.7' }]);
    expect(await repo.attempts(ws, c.id, 10)).toEqual([
      expect.objectContaining({ outcome: 'success', subject: 's-ada', email: 'p@acme.test', userId: ada, requestId: 'req-1' }),
    ]);

    // Bob's subject is not Ada's: no session, no attempt, no rider, Bob's binding untouched.
    expect(await signIn('s-bob', ada)).toBe(false);
    expect(settled).toHaveLength(1);
    expect(await sessionsOf(ada)).toHaveLength(1);
    expect(await repo.attempts(ws, c.id, 10)).toHaveLength(1);
    expect((await repo.boundPerson(ws, c.id, 'iss', 's-bob'))?.id).toBe(bob);

    // Ada was bound to another subject meanwhile: her binding key refuses the write, atomically.
    await db.dataSource.transaction((tx) =>
      repo.bind(tx, ws, { connectionId: c.id, issuer: 'iss', subject: 's-ada-2', userId: ada }, new Date()),
    );
    await expect(signIn('s-ada', ada)).rejects.toMatchObject({ constraint: 'sso_bindings_user_key' });
    expect(await sessionsOf(ada)).toHaveLength(1);
    expect(await repo.attempts(ws, c.id, 10)).toHaveLength(1);
    expect(await repo.boundPerson(ws, c.id, 'iss', 's-ada')).toBeNull();
  });

  it('lists attempts newest first', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const c = await aConnection(ws);
    await repo.recordAttempt(ws, { connectionId: c.id, outcome: 'failure', reason: 'state_mismatch' });
    await repo.recordAttempt(ws, { connectionId: c.id, outcome: 'success', subject: 's', email: 'a@acme.test' });
    const attempts = await repo.attempts(ws, c.id, 10);
    expect(attempts.map((a) => a.outcome)).toEqual(['success', 'failure']);
    expect(await repo.attempts(ws, c.id, 1)).toHaveLength(1);
  });

  it('spends an OIDC flow once, only for its connection and browser before it expires, and says why otherwise', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const [c, other] = [await aConnection(ws), await aConnection(ws)];
    const now = new Date();
    const flow = (stateHash: string, expiresAt: Date) =>
      repo.insertFlow(ws, {
        stateHash,
        connectionId: c.id,
        browserHash: 'browser-1',
        nonce: 'n',
        codeVerifierEncrypted: 'sealed',
        next: '/',
        createdAt: now,
        expiresAt,
      });
    await flow('state-1', new Date(now.getTime() + 60_000));
    expect(await repo.spendFlow('state-1', other.id, 'browser-1', now)).toEqual({
      refused: expect.objectContaining({ connectionId: c.id }),
    });
    expect(await repo.spendFlow('state-1', c.id, 'browser-2', now)).toEqual({ refused: expect.objectContaining({ usedAt: null }) });
    expect(await repo.spendFlow('state-1', c.id, 'browser-1', now)).toEqual({
      spent: expect.objectContaining({ workspaceId: ws, nonce: 'n', codeVerifierEncrypted: 'sealed', next: '/' }),
    });
    expect(await repo.spendFlow('state-1', c.id, 'browser-1', now)).toEqual({ refused: expect.objectContaining({ usedAt: now }) });
    expect(await repo.spendFlow('no-such-state', c.id, 'browser-1', now)).toEqual({ refused: null });

    await flow('state-2', new Date(now.getTime() - 1));
    expect(await repo.spendFlow('state-2', c.id, 'browser-1', now)).toEqual({ refused: expect.objectContaining({ usedAt: null }) });
    // The connection's next sign-in clears its expired flows.
    await flow('state-3', new Date(now.getTime() + 60_000));
    expect(await repo.spendFlow('state-2', c.id, 'browser-1', now)).toEqual({ refused: null });
  });
});
