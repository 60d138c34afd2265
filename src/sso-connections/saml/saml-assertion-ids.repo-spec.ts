import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { SamlAssertionIdsRepository } from './saml-assertion-ids.repository';

describe('SamlAssertionIdsRepository', () => {
  let ids: SamlAssertionIdsRepository;
  const db = repositoriesForSuite([SamlAssertionIdsRepository], (booted) => (ids = booted));

  const inAMinute = () => new Date(Date.now() + 60_000);

  it('accepts an assertion ID once per connection and refuses its replay, from any instance', async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    const [connection, other] = [randomUUID(), randomUUID()];
    expect(await ids.claim(workspaceId, connection, '_a1', inAMinute())).toBe(true);
    expect(await ids.claim(workspaceId, connection, '_a1', inAMinute())).toBe(false);
    expect(await ids.claim(workspaceId, other, '_a1', inAMinute())).toBe(true);
  });

  it('one of many concurrent claims of the same assertion wins', async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    const connection = randomUUID();
    const results = await Promise.all(Array.from({ length: 8 }, () => ids.claim(workspaceId, connection, '_race', inAMinute())));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('sweeps IDs whose assertions can no longer be presented, and keeps the live ones', async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    const connection = randomUUID();
    const now = new Date();
    await ids.claim(workspaceId, connection, '_old', new Date(now.getTime() - 1000));
    await ids.claim(workspaceId, connection, '_live', inAMinute());
    await ids.sweep(now);
    expect(await ids.has(workspaceId, connection, '_old')).toBe(false);
    expect(await ids.has(workspaceId, connection, '_live')).toBe(true);
  });

  const connection = randomUUID();
  itKeepsTheTenantContract('assertion IDs', db, {
    create: async (workspaceId) => {
      const id = `_${randomUUID()}`;
      await ids.claim(workspaceId, connection, id, inAMinute());
      return id;
    },
    read: async (workspaceId, id) => ((await ids.has(workspaceId, connection, id)) ? id : undefined),
  });
});
