import { randomBytes } from 'node:crypto';
import { aDeveloperRow, bootRepositories, RepositoryHarness } from '../../test/support/repository';
import { DeveloperSessionsRepository } from './developer-sessions.repository';
import { DeveloperTokensRepository } from './developer-tokens.repository';

/** Developer credentials: not tenant data; each is the developer's own, found by the SHA-256 of its secret. */
describe('DeveloperTokensRepository and DeveloperSessionsRepository', () => {
  let db: RepositoryHarness;
  let tokens: DeveloperTokensRepository;
  let sessions: DeveloperSessionsRepository;
  beforeAll(async () => {
    db = await bootRepositories([DeveloperTokensRepository, DeveloperSessionsRepository]);
    tokens = db.get(DeveloperTokensRepository);
    sessions = db.get(DeveloperSessionsRepository);
  });
  afterAll(() => db.close());

  const hash = () => randomBytes(32).toString('hex');
  const email = async (developerId: string) =>
    (await db.dataSource.query<{ email: string }[]>('SELECT email FROM developers WHERE id = $1', [developerId]))[0].email;

  it('resolves a usable token to its developer; only its own developer can revoke it, once', async () => {
    const [owner, other] = [await aDeveloperRow(db.dataSource), await aDeveloperRow(db.dataSource)];
    const tokenHash = hash();
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
    const tokenHash = hash();
    const expiresAt = new Date(Date.now() - 1000);
    await db.dataSource.transaction((tx) => tokens.insert(tx, { developerId: owner, label: 'old', tokenHash, expiresAt }));
    expect(await tokens.findUsable(tokenHash, new Date())).toBeUndefined();
  });

  it('finds a live session by its cookie hash, with its developer, until it expires or is deleted', async () => {
    const developerId = await aDeveloperRow(db.dataSource);
    const tokenHash = hash();
    const expiresAt = new Date(Date.now() + 3600_000);
    await sessions.insert({ developerId, tokenHash, csrfToken: 'csrf-1', expiresAt });
    expect(await sessions.findLive(tokenHash, new Date())).toEqual({ csrfToken: 'csrf-1', developerId, email: await email(developerId) });
    expect(await sessions.findLive(tokenHash, new Date(expiresAt.getTime() + 1))).toBeUndefined();
    await sessions.deleteByHash(tokenHash);
    expect(await sessions.findLive(tokenHash, new Date())).toBeUndefined();
  });
});
