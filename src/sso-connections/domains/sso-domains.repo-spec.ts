import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { anOidcConnection } from '../../../test/support/repository-fixtures';
import { SsoConnectionsRepository } from '../sso-connections.repository';
import { DomainClaimed, SsoDomainsRepository } from './sso-domains.repository';

describe('SsoDomainsRepository', () => {
  let repo: SsoDomainsRepository;
  let connections: SsoConnectionsRepository;
  const db = repositoriesForSuite([SsoDomainsRepository, SsoConnectionsRepository], (...booted) => ([repo, connections] = booted));

  /** The verified-once rule spans workspaces, and the database is shared: a domain per test. */
  const aDomain = () => `d-${randomUUID().slice(0, 8)}.test`;
  const aConnectionWith = (workspaceId: string, domain: string) =>
    db.dataSource.transaction(async (tx) => {
      const c = await connections.insert(tx, workspaceId, anOidcConnection('Acme'));
      await connections.setDomains(tx, workspaceId, c.id, [domain], () => 'token');
      return c.id;
    });
  const markVerified = (workspaceId: string, connectionId: string, domain: string) =>
    db.dataSource.transaction((tx) => repo.markVerified(tx, workspaceId, connectionId, domain, new Date()));

  let contractDomain = '';
  itKeepsTheTenantContract('SSO connection domains', db, {
    create: async (workspaceId) => aConnectionWith(workspaceId, (contractDomain = aDomain())),
    read: async (workspaceId, id) => (await repo.find(null, workspaceId, id, contractDomain)) ?? undefined,
    update: (workspaceId, id) => markVerified(workspaceId, id, contractDomain),
  });

  it('verifies a domain once, for one workspace; routes only verified domains, within the workspace', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const domain = aDomain();
    const [mine, theirs] = [await aConnectionWith(ws, domain), await aConnectionWith(other, domain)];
    expect(await repo.verifiedConnection(ws, domain)).toBeNull();
    expect(await repo.anyVerified(ws)).toBe(false);

    expect(await markVerified(ws, mine, domain)).toBe(true);
    expect(await repo.anyVerified(ws)).toBe(true);
    expect(await repo.anyVerified(other)).toBe(false);
    expect(await markVerified(ws, mine, domain)).toBe(false);
    await expect(markVerified(other, theirs, domain)).rejects.toBeInstanceOf(DomainClaimed);

    expect(await repo.verifiedConnection(ws, domain)).toBe(mine);
    expect(await repo.verifiedConnection(other, domain)).toBeNull();
    expect(await repo.claimedElsewhere(null, other, [domain, aDomain()])).toEqual([domain]);
    expect(await repo.claimedElsewhere(null, ws, [domain])).toEqual([]);
  });

  it('records a check that found nothing without verifying', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const domain = aDomain();
    const id = await aConnectionWith(ws, domain);
    const at = new Date('2026-12-07T10:00:00Z');
    await repo.markChecked(ws, id, domain, at);
    expect(await repo.find(null, ws, id, domain)).toMatchObject({ checkedAt: at, verifiedAt: null });
  });
});
