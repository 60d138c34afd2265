import { aDeveloperRow, aSecretHash, developerEmail, repositoriesForSuite } from '../../test/support/repository';
import { DeveloperSessionsRepository } from './developer-sessions.repository';

/** Dashboard sessions: not tenant data; each is its developer's own, found by the SHA-256 of its cookie. */
describe('DeveloperSessionsRepository', () => {
  let sessions: DeveloperSessionsRepository;
  const db = repositoriesForSuite([DeveloperSessionsRepository], (booted) => (sessions = booted));

  const email = (developerId: string) => developerEmail(db.dataSource, developerId);

  it('finds a live session by its cookie hash, with its developer, until it expires or is deleted', async () => {
    const developerId = await aDeveloperRow(db.dataSource);
    const tokenHash = aSecretHash();
    const expiresAt = new Date(Date.now() + 3600_000);
    await sessions.insert({ developerId, tokenHash, csrfToken: 'csrf-1', expiresAt });
    expect(await sessions.findLive(tokenHash, new Date())).toEqual({ csrfToken: 'csrf-1', developerId, email: await email(developerId) });
    expect(await sessions.findLive(tokenHash, new Date(expiresAt.getTime() + 1))).toBeUndefined();
    await sessions.deleteByHash(tokenHash);
    expect(await sessions.findLive(tokenHash, new Date())).toBeUndefined();
  });
});
