import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { SamlAssertionIdsRepository } from './saml-assertion-ids.repository';

describe('SamlAssertionIdsRepository', () => {
  let ids: SamlAssertionIdsRepository;
  const db = repositoriesForSuite([SamlAssertionIdsRepository], (booted) => (ids = booted));

  const inAMinute = () => new Date(Date.now() + 60_000);
  const subject = { issuer: 'https://idp.acme.test', subject: 'okta-00u1' };
  const claimed = (workspaceId: string, connectionId: string, assertionId: string, keepUntil: Date, who = subject) =>
    ids.claimAndFindBound({ workspaceId, connectionId, assertionId, keepUntil, now: new Date() }, who);
  const claim = async (workspaceId: string, connectionId: string, assertionId: string, keepUntil: Date) =>
    (await claimed(workspaceId, connectionId, assertionId, keepUntil)) !== null;

  it('accepts an assertion ID once per connection and refuses its replay, from any instance', async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    const [connection, other] = [randomUUID(), randomUUID()];
    expect(await claim(workspaceId, connection, '_a1', inAMinute())).toBe(true);
    expect(await claim(workspaceId, connection, '_a1', inAMinute())).toBe(false);
    expect(await claim(workspaceId, other, '_a1', inAMinute())).toBe(true);
  });

  it('reads the person the subject is bound to with the claim, and nothing for a replay', async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    const connection = randomUUID();
    await db.dataSource.query(`INSERT INTO sso_connections (id, workspace_id, name, protocol) VALUES ($1, $2, 'Acme', 'saml')`, [
      connection,
      workspaceId,
    ]);
    const [{ id: ada }] = await db.dataSource.query<{ id: string }[]>(
      `INSERT INTO end_users (workspace_id, email, first_name, is_active) VALUES ($1, 'ada@acme.test', 'Ada', true) RETURNING id`,
      [workspaceId],
    );
    await db.dataSource.query(
      `INSERT INTO sso_bindings (workspace_id, connection_id, issuer, subject, user_id, created_at, last_sign_in_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
      [workspaceId, connection, subject.issuer, subject.subject, ada],
    );
    expect(await claimed(workspaceId, connection, '_b1', inAMinute())).toEqual({
      bound: expect.objectContaining({ id: ada, workspaceId, email: 'ada@acme.test', firstName: 'Ada', isActive: true }),
    });
    expect(await claimed(workspaceId, connection, '_b1', inAMinute())).toBeNull();
    expect(await claimed(workspaceId, connection, '_b2', inAMinute(), { ...subject, subject: 'okta-unbound' })).toEqual({ bound: null });
  });

  it('one of many concurrent claims of the same assertion wins', async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    const connection = randomUUID();
    const results = await Promise.all(Array.from({ length: 8 }, () => claim(workspaceId, connection, '_race', inAMinute())));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('sweeps IDs whose assertions can no longer be presented, and keeps the live ones', async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    const connection = randomUUID();
    const now = new Date();
    await claim(workspaceId, connection, '_old', new Date(now.getTime() - 1000));
    await claim(workspaceId, connection, '_live', inAMinute());
    await ids.sweep(now);
    expect(await ids.has(workspaceId, connection, '_old')).toBe(false);
    expect(await ids.has(workspaceId, connection, '_live')).toBe(true);
  });

  const connection = randomUUID();
  itKeepsTheTenantContract('assertion IDs', db, {
    create: async (workspaceId) => {
      const id = `_${randomUUID()}`;
      await claim(workspaceId, connection, id, inAMinute());
      return id;
    },
    read: async (workspaceId, id) => ((await ids.has(workspaceId, connection, id)) ? id : undefined),
  });
});
