import { randomUUID } from 'node:crypto';
import { repositoriesForSuite } from '../../../test/support/repository';
import { SigningKeysRepository } from './signing-keys.repository';

/** The authorization server's keys: one set for every instance, not tenant data. */
describe('SigningKeysRepository', () => {
  let keys: SigningKeysRepository;
  // The per-worker database is shared with the e2e suites of the same run: keys with made-up material left in it
  // would be loaded (and refused) by every application booted on it afterwards.
  const db = repositoriesForSuite([SigningKeysRepository], (booted) => (keys = booted), {
    beforeClose: (tier) => tier.dataSource.query(`DELETE FROM oauth_signing_keys WHERE alg LIKE 'TEST-%'`),
  });

  /** An algorithm name of this test's own, so keys other tests made do not show. */
  const anAlg = () => `TEST-${randomUUID().slice(0, 8)}`;
  const aKey = (alg: string, activatesAt: Date) => ({
    kid: randomUUID(),
    alg,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: randomUUID() },
    privateKey: 'sealed-private-key',
    activatesAt,
  });

  it('answers the unretired keys of an algorithm, newest activation first, and stops answering a retired one', async () => {
    const alg = anAlg();
    const now = new Date();
    const [current, next] = [aKey(alg, new Date(now.getTime() - 60_000)), aKey(alg, new Date(now.getTime() + 60_000))];
    await db.dataSource.transaction(async (tx) => {
      await keys.lockForCreation(tx);
      await keys.insert(tx, current);
      await keys.insert(tx, next);
    });
    const unretired = await db.dataSource.transaction((tx) => keys.findUnretired(tx, alg, now));
    expect(unretired.map((k) => k.kid)).toEqual([next.kid, current.kid]);
    await db.dataSource.transaction((tx) => keys.retire(tx, [current.kid], now));
    const after = await db.dataSource.transaction((tx) => keys.findUnretired(tx, alg, new Date(now.getTime() + 1)));
    expect(after.map((k) => k.kid)).toEqual([next.kid]);
  });

  it('publishes a retired key while its tokens may live, and not after', async () => {
    const alg = anAlg();
    const now = new Date();
    const key = aKey(alg, new Date(now.getTime() - 60_000));
    await db.dataSource.transaction((tx) => keys.insert(tx, key));
    await db.dataSource.transaction((tx) => keys.retire(tx, [key.kid], now));
    const kids = async (retiredAfter: Date) => (await keys.listPublished(retiredAfter)).map((k) => k.kid);
    expect(await kids(new Date(now.getTime() - 1))).toContain(key.kid);
    expect(await kids(new Date(now.getTime() + 1))).not.toContain(key.kid);
  });

  /** Resolves once a session of this database waits for an advisory lock (polled: a condition, not a delay). */
  const waitingOnAnAdvisoryLock = async (): Promise<void> => {
    for (;;) {
      const [row] = await db.dataSource.query<{ n: string }[]>(
        `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      if (Number(row.n) > 0) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('serialises creation: a second transaction waits for the first to commit', async () => {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstLocked!: () => void;
    const locked = new Promise<void>((resolve) => (firstLocked = resolve));
    const first = db.dataSource.transaction(async (tx) => {
      await keys.lockForCreation(tx);
      firstLocked();
      await firstHolds;
      order.push('first commits');
    });
    await locked;
    const second = db.dataSource.transaction(async (tx) => {
      await keys.lockForCreation(tx);
      order.push('second holds the lock');
    });
    // The second transaction is seen waiting on the advisory lock before the first is let go.
    await waitingOnAnAdvisoryLock();
    order.push('first let go');
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first let go', 'first commits', 'second holds the lock']);
  });
});
