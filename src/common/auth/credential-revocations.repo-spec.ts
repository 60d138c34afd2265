import { Client, type Notification } from 'pg';
import { databaseUrl, workerDatabaseName } from '../../../test/support/databases';
import { bootRepositories, RepositoryHarness } from '../../../test/support/repository';
import {
  EVERY_CREDENTIAL,
  listenForRevocations,
  notifyAllCredentialsRevoked,
  notifyCredentialRevoked,
} from './credential-revocations.repository';

describe('credential revocations (LISTEN/NOTIFY)', () => {
  let db: RepositoryHarness;
  let listener: Client;
  const heard: string[] = [];
  const waiters: Array<() => void> = [];

  beforeAll(async () => {
    db = await bootRepositories([]);
    listener = new Client({ connectionString: databaseUrl(workerDatabaseName()) });
    await listener.connect();
    listener.on('notification', (message: Notification) => {
      heard.push(message.payload ?? '');
      waiters.splice(0).forEach((wake) => wake());
    });
    await listenForRevocations(listener);
  });
  afterAll(async () => {
    await listener.end();
    await db.close();
  });

  /** Resolves once a payload satisfying `match` has been heard. */
  const hear = (match: (payload: string) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (heard.some(match) ? resolve() : waiters.push(check));
      check();
    });

  it('tells the listeners a revoked hash when the revoking transaction commits, not before', async () => {
    const hash = `a1${Date.now().toString(16)}`;
    await db.dataSource.transaction(async (tx) => {
      await notifyCredentialRevoked(tx, hash);
      expect(heard).not.toContain(hash);
    });
    await hear((payload) => payload === hash);
  });

  it('tells nobody when the revoking transaction rolls back', async () => {
    const [rolledBack, committed] = [`b1${Date.now().toString(16)}`, `b2${Date.now().toString(16)}`];
    await expect(
      db.dataSource.transaction(async (tx) => {
        await notifyCredentialRevoked(tx, rolledBack);
        throw new Error('the revocation fails');
      }),
    ).rejects.toThrow('the revocation fails');
    // A later committed notification arrives after anything the rolled-back one could have sent.
    await db.dataSource.transaction((tx) => notifyCredentialRevoked(tx, committed));
    await hear((payload) => payload === committed);
    expect(heard).not.toContain(rolledBack);
  });

  it('revokes every credential at once with the wildcard payload', async () => {
    await db.dataSource.transaction((tx) => notifyAllCredentialsRevoked(tx));
    await hear((payload) => payload === EVERY_CREDENTIAL);
  });
});
