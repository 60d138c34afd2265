import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, repositoriesForSuite } from '../../../test/support/repository';
import { SamlSpsRepository } from '../sps/saml-sps.repository';
import { SeenRequestsRepository } from './seen-requests.repository';

describe('SeenRequestsRepository', () => {
  let seen: SeenRequestsRepository;
  let sps: SamlSpsRepository;
  const db = repositoriesForSuite([SeenRequestsRepository, SamlSpsRepository], (...booted) => ([seen, sps] = booted));

  const anSp = async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    return db.dataSource.transaction((tx) =>
      sps.insert(tx, workspaceId, {
        name: 'App',
        spEntityId: `https://sp-${randomUUID()}.example.test`,
        acsUrl: 'https://sp.example.test/acs',
        nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
        nameIdAttribute: 'email',
        signAssertions: true,
        attributeMapping: {},
        spCertPem: null,
        defaultRelayState: null,
        isActive: true,
      }),
    );
  };

  it('claims a request ID once per SP, refuses the replay, and takes it over once its time is up', async () => {
    const [sp, other] = [await anSp(), await anSp()];
    const now = new Date();
    const keep = new Date(now.getTime() + 60_000);
    expect(await seen.claim(sp, 'id-1', now, keep)).toBe(true);
    expect(await seen.claim(sp, 'id-1', now, keep)).toBe(false);
    expect(await seen.claim(other, 'id-1', now, keep)).toBe(true);
    expect(await seen.claim(sp, 'id-1', new Date(keep.getTime() + 1), new Date(keep.getTime() + 60_000))).toBe(true);
  });
});
