import {
  aDeveloperRow,
  aSecretHash,
  aWorkspaceRow,
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
  /** markRevoked as the workspace: whether the statement revoked a row (it refuses a token the workspace does not have). */
  const revokes = (workspaceId: string, id: string) =>
    db.dataSource
      .transaction((tx) => tokens.markRevoked(tx, workspaceId, id))
      .then(
        () => true,
        () => false,
      );

  itKeepsTheTenantContract('SCIM tokens', db, {
    create: async (workspaceId) => (await aToken(workspaceId)).id,
    read: async (workspaceId, id) => (await tokens.list(workspaceId)).find((t) => t.id === id),
    update: revokes,
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
