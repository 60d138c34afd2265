import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { anSpFields as fields } from '../../../test/support/repository-fixtures';
import { SamlSpsRepository } from '../sps/saml-sps.repository';
import { SsoRequestsRepository } from './sso-requests.repository';

describe('SsoRequestsRepository', () => {
  let sps: SamlSpsRepository;
  let sso: SsoRequestsRepository;
  const db = repositoriesForSuite([SamlSpsRepository, SsoRequestsRepository], (...booted) => ([sps, sso] = booted));

  const anSp = (workspaceId: string) => db.dataSource.transaction((tx) => sps.insert(tx, workspaceId, fields()));
  const aClientIp = () => `198.51.100.${Math.floor(Math.random() * 250)}`;

  it('finds the SP by its entity id across workspaces, and by id only in its own workspace', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const sp = await anSp(ws);
    expect(await sso.findSpByEntityId(sp.spEntityId)).toEqual(expect.objectContaining({ id: sp.id, workspaceId: ws }));
    expect(await sso.findSpByEntityId(`${sp.spEntityId}-unknown`)).toBeNull();
    expect(await sso.findSp(ws, sp.id)).toEqual(expect.objectContaining({ id: sp.id }));
    expect(await sso.findSp(other, sp.id)).toBeNull();
  });

  it('parks SSO requests per client address, keeping only the newest ones', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const sp = await anSp(ws);
    const clientIp = aClientIp();
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

  it('gives back the parked request as it was stashed, once: a consumed ticket finds nothing', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const sp = await anSp(ws);
    const request = {
      id: '_full',
      issuer: sp.spEntityId,
      issueInstant: new Date().toISOString(),
      acsUrl: 'https://sp.example.test/acs',
      protocolBinding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
      forceAuthn: true,
      isPassive: false,
      nameIdPolicy: { format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', allowCreate: true },
      subject: { nameId: 'p@example.test' },
      requestedAuthnContext: {
        comparison: 'minimum' as const,
        classRefs: ['urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'],
        declRefs: [],
      },
    };
    const ticket = await sso.stash(sp, request, null, aClientIp(), 5);
    const parked = await sso.find(ticket);
    expect(parked).toMatchObject({ workspaceId: ws, serviceProviderId: sp.id, relayState: null, request });
    expect(await sso.consume(parked!.id)).toBe(true);
    expect(await sso.consume(parked!.id)).toBe(false);
    expect(await sso.find(ticket)).toBeNull();
  });

  it('finds nothing for an unknown ticket or an expired request', async () => {
    const sp = await anSp(await aWorkspaceRow(db.dataSource));
    expect(await sso.find('no-such-ticket')).toBeNull();
    const ticket = await sso.stash(
      sp,
      { id: '_old', issuer: sp.spEntityId, issueInstant: new Date().toISOString(), forceAuthn: false, isPassive: false },
      null,
      aClientIp(),
      5,
    );
    await db.dataSource.query(`UPDATE saml_pending_requests SET expires_at = now() - interval '1 second' WHERE service_provider_id = $1`, [
      sp.id,
    ]);
    expect(await sso.find(ticket)).toBeNull();
  });

  // The SP as the SSO endpoint reads it by id: parked requests are found by their unguessable ticket,
  // never by a workspace, so the SP read is the one this repository scopes.
  itKeepsTheTenantContract('saml_service_providers (SSO read)', db, {
    create: async (workspaceId) => (await anSp(workspaceId)).id,
    read: async (workspaceId, id) => (await sso.findSp(workspaceId, id)) ?? undefined,
  });
});
