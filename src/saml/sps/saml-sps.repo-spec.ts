import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, bootRepositories, itKeepsTheTenantContract, RepositoryHarness } from '../../../test/support/repository';
import { SsoRequestsRepository } from '../sso/sso-requests.repository';
import { SamlSpsRepository, SpFields } from './saml-sps.repository';

const fields = (name = 'App'): SpFields => ({
  name,
  spEntityId: `https://sp-${randomUUID()}.example.test/metadata`,
  acsUrl: 'https://sp.example.test/acs',
  nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  nameIdAttribute: 'email',
  signAssertions: true,
  attributeMapping: { mail: 'email' },
  spCertPem: null,
  defaultRelayState: null,
  isActive: true,
});

describe('SamlSpsRepository and SsoRequestsRepository', () => {
  let db: RepositoryHarness;
  let sps: SamlSpsRepository;
  let sso: SsoRequestsRepository;
  beforeAll(async () => {
    db = await bootRepositories([SamlSpsRepository, SsoRequestsRepository]);
    sps = db.get(SamlSpsRepository);
    sso = db.get(SsoRequestsRepository);
  });
  afterAll(() => db.close());

  const anSp = (workspaceId: string) => db.dataSource.transaction((tx) => sps.insert(tx, workspaceId, fields()));

  itKeepsTheTenantContract(
    'SAML service providers',
    () => db,
    () => ({
      create: async (workspaceId) => (await anSp(workspaceId)).id,
      read: async (workspaceId, id) => (await sso.findSp(workspaceId, id, null))?.sp,
      update: (workspaceId, id) =>
        db.dataSource.transaction(async (tx) => (await sps.update(tx, workspaceId, id, fields('Renamed'))) !== null),
      delete: async (workspaceId, id) => {
        await db.dataSource.transaction((tx) => sps.delete(tx, workspaceId, id));
        // Whether the row is gone, whoever's it was.
        return (await db.dataSource.query('SELECT 1 FROM saml_service_providers WHERE id = $1', [id])).length === 0;
      },
    }),
  );

  it('answers an update as the row now is, typed from the entity', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const sp = await anSp(ws);
    const updated = await db.dataSource.transaction((tx) =>
      sps.update(tx, ws, sp.id, { ...fields('Renamed'), attributeMapping: { cn: 'name' } }),
    );
    expect(updated).toMatchObject({ id: sp.id, workspaceId: ws, name: 'Renamed', attributeMapping: { cn: 'name' }, spCertPem: null });
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(sp.createdAt.getTime());
  });

  it('reads the signed-in user’s profile with the SP only for a user of the SP’s workspace', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const sp = await anSp(ws);
    const [mine] = await db.dataSource.query<{ id: string }[]>(
      `INSERT INTO end_users (workspace_id, email, first_name, last_name, email_verified) VALUES ($1, 'p@example.test', 'Pat', '', true) RETURNING id`,
      [ws],
    );
    const [theirs] = await db.dataSource.query<{ id: string }[]>(
      `INSERT INTO end_users (workspace_id, email) VALUES ($1, 'q@example.test') RETURNING id`,
      [other],
    );
    expect(await sso.findSpByEntityId(sp.spEntityId, mine.id)).toEqual({
      sp: expect.objectContaining({ id: sp.id }),
      profile: { email: 'p@example.test', firstName: 'Pat', lastName: '', emailVerified: true },
    });
    expect((await sso.findSpByEntityId(sp.spEntityId, theirs.id))?.profile).toBeNull();
    expect(await sso.findSp(other, sp.id, mine.id)).toBeNull();
  });

  it('parks SSO requests per client address, keeping only the newest ones', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const sp = await anSp(ws);
    const clientIp = `198.51.100.${Math.floor(Math.random() * 250)}`;
    const request = (id: string) => ({
      id,
      issuer: sp.spEntityId,
      issueInstant: new Date().toISOString(),
      forceAuthn: false,
      isPassive: false,
    });
    const tickets: string[] = [];
    for (const id of ['_r1', '_r2', '_r3']) tickets.push(await sso.stash(sp, request(id), 'relay', clientIp, 2));
    expect(await sso.find(tickets[0])).toBeNull();
    expect(await sso.find(tickets[2])).toMatchObject({
      workspaceId: ws,
      serviceProviderId: sp.id,
      relayState: 'relay',
      request: { id: '_r3' },
    });
  });
});
