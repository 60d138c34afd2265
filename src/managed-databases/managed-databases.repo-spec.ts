import { randomUUID } from 'node:crypto';
import { aMemberAndAnOutsider, itKeepsTheTenantContract, judgedByTable, repositoriesForSuite } from '../../test/support/repository';
import { ManagedDatabasesRepository } from './managed-databases.repository';

describe('ManagedDatabasesRepository', () => {
  let databases: ManagedDatabasesRepository;
  const db = repositoriesForSuite([ManagedDatabasesRepository], (booted) => (databases = booted));

  const aDatabase = (workspaceId: string) => {
    const dbName = `repo_spec_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    return db.dataSource.transaction((tx) =>
      databases.insertDatabase(tx, workspaceId, {
        displayName: 'Orders',
        dbName,
        engine: 'postgres',
        username: `u_${dbName}`,
        passwordEncrypted: 'sealed:not-a-real-password',
        host: '127.0.0.1',
        port: 5432,
        maxStorageMb: 100,
        maxConnections: 5,
      }),
    );
  };
  const table = judgedByTable(db, 'managed_databases', 'status');

  itKeepsTheTenantContract('managed databases', db, {
    create: async (workspaceId) => (await aDatabase(workspaceId)).id,
    read: async (workspaceId, id) => (await databases.listDatabases(workspaceId)).find((d) => d.id === id),
    update: (workspaceId, id) =>
      table.sets(id, 'available' as const, (tx, status) => databases.setDatabaseStatus(tx, workspaceId, id, status)),
    delete: (workspaceId, id) => table.removes(id, (tx) => databases.deleteDatabase(tx, workspaceId, id)),
  });

  it('locks a database for a member of its workspace only, under the 5 s lock timeout', async () => {
    const { workspaceId: ws, member, outsider } = await aMemberAndAnOutsider(db.dataSource, 'owner');
    const created = await aDatabase(ws);
    await db.dataSource.transaction(async (tx) => {
      expect((await databases.lockDatabaseForDeveloper(tx, member, created.id))?.id).toBe(created.id);
      const [{ lock_timeout }] = await tx.query<{ lock_timeout: string }[]>('SHOW lock_timeout');
      expect(lock_timeout).toBe('5s');
    });
    await db.dataSource.transaction(async (tx) => expect(await databases.lockDatabaseForDeveloper(tx, outsider, created.id)).toBeNull());
  });
});
