import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { SsoRequestsRepository } from '../sso/sso-requests.repository';
import { anSpFields as fields } from '../../../test/support/repository-fixtures';
import { SamlSpsRepository } from './saml-sps.repository';

describe('SamlSpsRepository', () => {
  let sps: SamlSpsRepository;
  let sso: SsoRequestsRepository;
  const db = repositoriesForSuite([SamlSpsRepository, SsoRequestsRepository], (...booted) => ([sps, sso] = booted));

  const anSp = (workspaceId: string) => db.dataSource.transaction((tx) => sps.insert(tx, workspaceId, fields()));

  itKeepsTheTenantContract('SAML service providers', db, {
    create: async (workspaceId) => (await anSp(workspaceId)).id,
    read: async (workspaceId, id) => (await sso.findSp(workspaceId, id)) ?? undefined,
    update: (workspaceId, id) =>
      db.dataSource.transaction(async (tx) => (await sps.update(tx, workspaceId, id, fields('Renamed'))) !== null),
    delete: async (workspaceId, id) => {
      await db.dataSource.transaction((tx) => sps.delete(tx, workspaceId, id));
      // Whether the row is gone, whoever's it was.
      return (await db.dataSource.query('SELECT 1 FROM saml_service_providers WHERE id = $1', [id])).length === 0;
    },
  });

  it('answers an update as the row now is, typed from the entity', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const sp = await anSp(ws);
    const updated = await db.dataSource.transaction((tx) =>
      sps.update(tx, ws, sp.id, { ...fields('Renamed'), attributeMapping: { cn: 'name' } }),
    );
    expect(updated).toMatchObject({ id: sp.id, workspaceId: ws, name: 'Renamed', attributeMapping: { cn: 'name' }, spCertPem: null });
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(sp.createdAt.getTime());
  });
});
