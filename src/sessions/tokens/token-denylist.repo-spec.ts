import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, repositoriesForSuite } from '../../../test/support/repository';
import { TokenDenylistRepository } from './token-denylist.repository';

describe('TokenDenylistRepository', () => {
  let denylist: TokenDenylistRepository;
  const db = repositoriesForSuite([TokenDenylistRepository], (booted) => (denylist = booted));

  it('denies token ids until they expire, idempotently, and prunes them after', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const now = new Date();
    const [soon, later] = [new Date(now.getTime() + 1000), new Date(now.getTime() + 3600_000)];
    const [a, b] = [randomUUID(), randomUUID()];
    const deny = () =>
      db.dataSource.transaction((tx) =>
        denylist.deny(tx, ws, [
          { jti: a, expiresAt: soon, sessionId: randomUUID() },
          { jti: b, expiresAt: later, sessionId: randomUUID() },
        ]),
      );
    await deny();
    await deny();
    expect(await denylist.isDenied(a, now)).toBe(true);
    expect(await denylist.isDenied(a, new Date(soon.getTime() + 1))).toBe(false);
    expect(await denylist.prune(new Date(soon.getTime() + 1))).toBeGreaterThanOrEqual(1);
    expect(await denylist.isDenied(b, now)).toBe(true);
  });
});
