import {
  aDeveloperRow,
  aSecretHash,
  aWorkspaceRow,
  commits,
  itKeepsTheTenantContract,
  repositoriesForSuite,
} from '../../../test/support/repository';
import { ScimTokensRepository } from './scim-tokens.repository';

describe('ScimTokensRepository', () => {
  let tokens: ScimTokensRepository;
  const db = repositoriesForSuite([ScimTokensRepository], (booted) => (tokens = booted));

  const aToken = async (workspaceId: string, expiresAt: Date | null = null) => {
    const createdBy = await aDeveloperRow(db.dataSource);
    const tokenHash = aSecretHash();
    const row = await db.dataSource.transaction((tx) => tokens.insert(tx, workspaceId, { label: 'idp', tokenHash, expiresAt, createdBy }));
    return { ...row, tokenHash };
  };
  itKeepsTheTenantContract('SCIM tokens', db, {
    create: async (workspaceId) => (await aToken(workspaceId)).id,
    read: async (workspaceId, id) => (await tokens.list(workspaceId)).find((t) => t.id === id),
    // markRevoked refuses a token the workspace does not have.
    update: (workspaceId, id) => commits(db, (tx) => tokens.markRevoked(tx, workspaceId, id)),
  });

  it('resolves a live token’s hash to its workspace, and not once it is revoked or expired', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const live = await aToken(ws);
    const now = new Date();
    expect(await tokens.findLiveByHash(live.tokenHash, now)).toEqual({ id: live.id, workspaceId: ws, expiresAt: null, label: 'idp' });
    const revokedAt = await db.dataSource.transaction((tx) => tokens.markRevoked(tx, ws, live.id));
    expect(revokedAt).toEqual(expect.any(Date));
    expect(await tokens.findLiveByHash(live.tokenHash, now)).toBeUndefined();
    const expired = await aToken(ws, new Date(now.getTime() - 1000));
    expect(await tokens.findLiveByHash(expired.tokenHash, now)).toBeUndefined();
  });
});
