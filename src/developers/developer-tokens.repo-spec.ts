import { aDeveloperRow, aSecretHash, developerEmail, repositoriesForSuite } from '../../test/support/repository';
import { DeveloperTokensRepository } from './developer-tokens.repository';

/** Developer tokens: not tenant data; each is its developer's own, found by the SHA-256 of its secret. */
describe('DeveloperTokensRepository', () => {
  let tokens: DeveloperTokensRepository;
  const db = repositoriesForSuite([DeveloperTokensRepository], (booted) => (tokens = booted));

  const email = (developerId: string) => developerEmail(db.dataSource, developerId);

  it('resolves a usable token to its developer; only its own developer can revoke it, once', async () => {
    const [owner, other] = [await aDeveloperRow(db.dataSource), await aDeveloperRow(db.dataSource)];
    const tokenHash = aSecretHash();
    const token = await db.dataSource.transaction((tx) =>
      tokens.insert(tx, { developerId: owner, label: 'ci', tokenHash, expiresAt: null }),
    );
    const now = new Date();
    expect(await tokens.findUsable(tokenHash, now)).toEqual({
      tokenId: token.id,
      expiresAt: null,
      developerId: owner,
      email: await email(owner),
    });
    expect(await db.dataSource.transaction((tx) => tokens.revoke(tx, other, token.id))).toBeNull();
    expect(await tokens.findUsable(tokenHash, now)).toBeDefined();
    expect(await db.dataSource.transaction((tx) => tokens.revoke(tx, owner, token.id))).toBe(tokenHash);
    expect(await db.dataSource.transaction((tx) => tokens.revoke(tx, owner, token.id))).toBeNull();
    expect(await tokens.findUsable(tokenHash, now)).toBeUndefined();
  });

  it('does not resolve an expired token', async () => {
    const owner = await aDeveloperRow(db.dataSource);
    const tokenHash = aSecretHash();
    const expiresAt = new Date(Date.now() - 1000);
    await db.dataSource.transaction((tx) => tokens.insert(tx, { developerId: owner, label: 'old', tokenHash, expiresAt }));
    expect(await tokens.findUsable(tokenHash, new Date())).toBeUndefined();
  });

  it("lists a developer's unrevoked tokens oldest first, and nobody else's", async () => {
    const [owner, other] = [await aDeveloperRow(db.dataSource), await aDeveloperRow(db.dataSource)];
    const first = await db.dataSource.transaction((tx) =>
      tokens.insert(tx, { developerId: owner, label: 'first', tokenHash: aSecretHash(), expiresAt: null }),
    );
    const second = await db.dataSource.transaction((tx) =>
      tokens.insert(tx, { developerId: owner, label: 'second', tokenHash: aSecretHash(), expiresAt: null }),
    );
    await db.dataSource.transaction((tx) =>
      tokens.insert(tx, { developerId: other, label: 'theirs', tokenHash: aSecretHash(), expiresAt: null }),
    );
    expect((await tokens.listUnrevoked(owner)).map((t) => t.label)).toEqual(['first', 'second']);
    await db.dataSource.transaction((tx) => tokens.revoke(tx, owner, first.id));
    expect((await tokens.listUnrevoked(owner)).map((t) => t.id)).toEqual([second.id]);
  });
});
