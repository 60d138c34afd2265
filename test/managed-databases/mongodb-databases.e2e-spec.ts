import { MongoClient } from 'mongodb';
import { createTestApp, type TestApp } from '../support/app';
import { aDeveloper, aWorkspace, type TestDeveloper } from '../support/factories';
import { anAvailableDatabase, deleteAll, managedEnv, untilJobDone, waitFor } from './support';

/**
 * MongoDB through the API. Our machines have no MongoDB server: without
 * MANAGED_MONGODB_ADMIN_URL the suite proves the engine is reported unavailable
 * (422); with it, the same lifecycle as Postgres and Redis runs against the server.
 */
const ADMIN_URL = process.env.MANAGED_MONGODB_ADMIN_URL;

describe('managed MongoDB databases', () => {
  let t: TestApp;
  beforeAll(async () => {
    const address = ADMIN_URL ? new URL(ADMIN_URL) : undefined;
    t = await createTestApp(
      managedEnv({
        MANAGED_MONGODB_ADMIN_URL: ADMIN_URL ?? '',
        MANAGED_MONGODB_PUBLIC_HOST: address?.hostname ?? '127.0.0.1',
        MANAGED_MONGODB_PUBLIC_PORT: address?.port || '27017',
      }),
    );
  });
  afterAll(async () => {
    await deleteAll(t);
    await t.close();
  });

  if (!ADMIN_URL) {
    it('answers 422 engine_unavailable when no MongoDB admin URL is configured', async () => {
      const dev = await aDeveloper(t);
      const ws = await aWorkspace(t, dev);
      const res = await t
        .http()
        .post(`/e/v1/developer/workspaces/${ws.id}/databases/`)
        .set(dev.auth)
        .send({ display_name: 'docs', engine: 'mongodb' })
        .expect(422);
      expect(res.body).toMatchObject({ error: 'engine_unavailable', details: { engine: 'mongodb' } });
    });
    return;
  }

  async function asTenant<T>(dev: TestDeveloper, id: string, fn: (c: MongoClient) => Promise<T>): Promise<T> {
    const conn = (await t.http().get(`/e/v1/developer/databases/${id}/connection/`).set(dev.auth).expect(200)).body;
    const c = new MongoClient(conn.connection_string, { serverSelectionTimeoutMS: 3000, directConnection: true });
    try {
      await c.connect();
      return await fn(c);
    } finally {
      await c.close();
    }
  }

  it('creates a database whose connection string writes and reads, and keeps tenants apart', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const [a, b] = await Promise.all([anAvailableDatabase(t, dev, ws, 'mongodb'), anAvailableDatabase(t, dev, ws, 'mongodb')]);
    const docs = await asTenant(dev, a.id, async (c) => {
      await c.db().collection('notes').insertOne({ body: 'hello' });
      return c
        .db()
        .collection('notes')
        .find({}, { projection: { _id: 0 } })
        .toArray();
    });
    expect(docs).toEqual([{ body: 'hello' }]);
    await expect(asTenant(dev, a.id, (c) => c.db(b.db_name).collection('x').findOne())).rejects.toThrow(/not authorized/);
  });

  it('backs up and restores, reports metrics, and turns unhealthy when the user is dropped', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'mongodb');
    await asTenant(dev, db.id, (c) => c.db().collection('items').insertOne({ name: 'original' }));
    const requested = await t.http().post(`/e/v1/developer/databases/${db.id}/backups/`).set(dev.auth).send({ name: 'b' }).expect(202);
    const backup = await untilJobDone(t, dev, `/e/v1/developer/backups/${requested.body.id}/`);
    expect(backup.status).toBe('completed');
    await asTenant(dev, db.id, (c) =>
      c
        .db()
        .collection('items')
        .updateMany({}, { $set: { name: 'changed' } }),
    );
    const restore = await t.http().post(`/e/v1/developer/backups/${backup.id}/restore/`).set(dev.auth).expect(202);
    await untilJobDone(t, dev, `/e/v1/developer/restores/${restore.body.id}/`);
    const names = await asTenant(dev, db.id, async (c) => (await c.db().collection('items').find().toArray()).map((d) => d.name));
    expect(names).toEqual(['original']);

    const metrics = (await t.http().get(`/e/v1/developer/databases/${db.id}/metrics/`).set(dev.auth).expect(200)).body;
    expect(metrics).toMatchObject({ engine: 'mongodb', objects: 1 });
    expect((await t.http().get(`/e/v1/developer/databases/${db.id}/health/`).set(dev.auth)).body.status).toBe('healthy');
    const username = (await t.http().get(`/e/v1/developer/databases/${db.id}/connection/`).set(dev.auth)).body.username;
    const admin = new MongoClient(ADMIN_URL);
    await admin.db(db.db_name).command({ dropUser: username });
    await admin.close();
    expect((await t.http().get(`/e/v1/developer/databases/${db.id}/health/`).set(dev.auth)).body.status).toBe('unhealthy');
  });

  it('deletes the user and the database', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await anAvailableDatabase(t, dev, ws, 'mongodb');
    await asTenant(dev, db.id, (c) => c.db().collection('x').insertOne({ a: 1 }));
    await t.http().delete(`/e/v1/developer/databases/${db.id}/`).set(dev.auth).expect(202);
    await waitFor(
      () => t.http().get(`/e/v1/developer/databases/${db.id}/`).set(dev.auth),
      (r) => r.status === 404,
      'database to be gone',
    );
    const admin = new MongoClient(ADMIN_URL);
    const dbs = await admin.db('admin').admin().listDatabases();
    await admin.close();
    expect(dbs.databases.map((d) => d.name)).not.toContain(db.db_name);
  });
});
